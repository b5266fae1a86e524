import { textKind } from '../kinds/text-kind.js';

/** 21 DynamicLink: a free link, kept as text. */
export const dynamicLink = textKind({ code: '21', name: 'DynamicLink', filterKind: 'presence' });
