import { plannedKind } from '../kinds/planned-kind.js';

/** 38 DateFormula: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const dateFormula = plannedKind({ code: '38', name: 'DateFormula', valueKind: 'datetime', column: 'timestamp', readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
