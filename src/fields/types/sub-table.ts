import { plannedKind } from '../kinds/planned-kind.js';

/** 34 SubTable: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const subTable = plannedKind({ code: '34', name: 'SubTable', valueKind: 'reference', column: 'json', plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
