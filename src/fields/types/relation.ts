import { plannedKind } from '../kinds/planned-kind.js';

/** 29 Relation: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const relation = plannedKind({ code: '29', name: 'Relation', valueKind: 'reference', column: 'json', plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
