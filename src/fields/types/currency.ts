import { numberKind } from '../kinds/number-kind.js';

/** 8 Currency: an amount, a number with a precision. */
export const currency = numberKind({ code: '8', name: 'Currency' });
