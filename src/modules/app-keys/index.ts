/** App keys: issued by the CLI and at first run; checked by auth/app-key-strategy. */
export { firstKeyOf, issueKey, setKeyAllowlist, setKeyWorksheets, type IssuedKey, type KeyWorksheet } from './service.js';
