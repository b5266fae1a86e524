import { choiceKind } from '../kinds/choice-kind.js';

/** 10 MultipleSelect: any number of options. */
export const multipleSelect = choiceKind({ code: '10', name: 'MultipleSelect', multiple: true });
