import { textKind } from '../kinds/text-kind.js';

/** 41 RichText: HTML text, stored as written (clients must sanitize before rendering it). */
export const richText = textKind({ code: '41', name: 'RichText', filterKind: 'presence' });
