import { plannedKind } from '../kinds/planned-kind.js';

/** 54 CustomField: registered with its storage; its behaviour arrives with a later issue (custom field plugins). */
export const customField = plannedKind({ code: '54', name: 'CustomField', valueKind: 'json', column: 'json', plannedFor: 'a later issue (custom field plugins)' });
