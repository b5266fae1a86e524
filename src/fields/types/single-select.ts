import { choiceKind } from '../kinds/choice-kind.js';

/** 9 SingleSelect: one option of a flat list. */
export const singleSelect = choiceKind({ code: '9', name: 'SingleSelect', multiple: false });
