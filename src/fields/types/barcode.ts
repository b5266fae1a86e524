import { textKind } from '../kinds/text-kind.js';

/** 47 Barcode: the text a barcode encodes. */
export const barcode = textKind({ code: '47', name: 'Barcode', filterKind: 'presence' });
