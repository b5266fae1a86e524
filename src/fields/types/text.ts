import { textKind } from '../kinds/text-kind.js';

/** 2 Text: single- or multi-line text; may be the title. */
export const text = textKind({ code: '2', name: 'Text', canBeTitle: true });
