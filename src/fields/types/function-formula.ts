import { plannedKind } from '../kinds/planned-kind.js';

/** 53 FunctionFormula: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const functionFormula = plannedKind({ code: '53', name: 'FunctionFormula', valueKind: 'json', column: 'json', readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
