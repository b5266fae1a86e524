import { plannedKind } from '../kinds/planned-kind.js';

/** 48 OrgRole: registered with its storage; its behaviour arrives with the "identity and access" issue (organization roles). */
export const orgRole = plannedKind({ code: '48', name: 'OrgRole', valueKind: 'reference', column: 'json', plannedFor: 'the "identity and access" issue (organization roles)' });
