import { numberKind } from '../kinds/number-kind.js';

/** 6 Number: a decimal number with an optional precision (0–14). */
export const number = numberKind({ code: '6', name: 'Number' });
