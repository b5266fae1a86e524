import { layoutKind } from '../kinds/layout-kind.js';

/** 52 Section: a tab section on the form. */
export const section = layoutKind({ code: '52', name: 'Section' });
