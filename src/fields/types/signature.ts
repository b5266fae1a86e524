import { textKind } from '../kinds/text-kind.js';

/** 42 Signature: an image of a signature, as an http(s) URL or a `data:image/…` URL. */
export const signature = textKind({
  code: '42',
  name: 'Signature',
  filterKind: 'presence',
  check: (t) => (/^(https?:\/\/\S+|data:image\/[a-z+.-]+;base64,[A-Za-z0-9+/=\s]+)$/.test(t) ? null : 'expected an http(s) URL or a data:image/…;base64 URL'),
});
