import { plannedKind } from '../kinds/planned-kind.js';

/** 30 Lookup: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const lookup = plannedKind({ code: '30', name: 'Lookup', valueKind: 'json', column: 'json', readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
