import { layoutKind } from '../kinds/layout-kind.js';

/** 22 Divider: a section divider on the form. */
export const divider = layoutKind({ code: '22', name: 'Divider' });
