import { textKind } from '../kinds/text-kind.js';

const LANDLINE = /^\+?[0-9(][0-9 ()\-.#*]{2,40}$/;

/** 4 LandlinePhone: a landline number, possibly with an extension after # or -. */
export const landlinePhone = textKind({
  code: '4',
  name: 'LandlinePhone',
  check: (t) => (LANDLINE.test(t) ? null : `"${t}" is not a phone number`),
});
