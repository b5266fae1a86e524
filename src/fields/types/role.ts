import { plannedKind } from '../kinds/planned-kind.js';

/** 44 Role: registered with its storage; its behaviour arrives with the "identity and access" issue (roles). */
export const role = plannedKind({ code: '44', name: 'Role', valueKind: 'reference', column: 'json', plannedFor: 'the "identity and access" issue (roles)' });
