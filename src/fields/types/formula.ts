import { plannedKind } from '../kinds/planned-kind.js';

/** 31 Formula: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const formula = plannedKind({ code: '31', name: 'Formula', valueKind: 'number', column: 'real', readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
