import { textKind } from '../kinds/text-kind.js';

const PHONE = /^\+?[0-9(][0-9 ()\-.]{2,30}$/;

/** 3 PhoneNumber: a mobile number, digits with an optional leading + and separators. */
export const phoneNumber = textKind({
  code: '3',
  name: 'PhoneNumber',
  check: (t) => (PHONE.test(t) ? null : `"${t}" is not a phone number`),
});
