import { choiceKind } from '../kinds/choice-kind.js';

/** 11 Dropdown: one option, shown as a drop-down. */
export const dropdown = choiceKind({ code: '11', name: 'Dropdown', multiple: false });
