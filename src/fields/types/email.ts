import { textKind } from '../kinds/text-kind.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 5 Email: an e-mail address (checked for the user@host.tld form only). */
export const email = textKind({
  code: '5',
  name: 'Email',
  check: (t) => (EMAIL.test(t) ? null : `"${t}" is not an e-mail address`),
});
