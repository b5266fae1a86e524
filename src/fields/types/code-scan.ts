import { textKind } from '../kinds/text-kind.js';

/** 39 CodeScan: the text read from a scanned code. */
export const codeScan = textKind({ code: '39', name: 'CodeScan', filterKind: 'presence' });
