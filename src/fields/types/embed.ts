import { layoutKind } from '../kinds/layout-kind.js';

/** 45 Embed: an embedded page on the form. */
export const embed = layoutKind({ code: '45', name: 'Embed' });
