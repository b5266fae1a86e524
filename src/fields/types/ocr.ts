import { textKind } from '../kinds/text-kind.js';

/** 43 OCR: text recognised from an image. */
export const ocr = textKind({ code: '43', name: 'OCR', filterKind: 'presence' });
