import { plannedKind } from '../kinds/planned-kind.js';

/** 32 Concatenate: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const concatenate = plannedKind({ code: '32', name: 'Concatenate', valueKind: 'text', column: 'text', readOnly: true, plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
