import { textKind } from '../kinds/text-kind.js';

/** 7 Certificate: an identity-document number, kept as text. */
export const certificate = textKind({ code: '7', name: 'Certificate' });
