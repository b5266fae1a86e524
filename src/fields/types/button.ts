import { layoutKind } from '../kinds/layout-kind.js';

/** 49 Button: a button on the form that calls an API; it holds no value. */
export const button = layoutKind({ code: '49', name: 'Button' });
