import { plannedKind } from '../kinds/planned-kind.js';

/** 37 Rollup: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const rollup = plannedKind({ code: '37', name: 'Rollup', valueKind: 'number', column: 'real', readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
