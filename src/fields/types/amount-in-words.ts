import { numberKind } from '../kinds/number-kind.js';

/** 25 AmountInWords: an amount that the client shows in words; stored as a number. */
export const amountInWords = numberKind({ code: '25', name: 'AmountInWords' });
