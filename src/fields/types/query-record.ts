import { plannedKind } from '../kinds/planned-kind.js';

/** 51 QueryRecord: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const queryRecord = plannedKind({ code: '51', name: 'QueryRecord', valueKind: 'reference', column: null, readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
