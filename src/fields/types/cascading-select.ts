import { plannedKind } from '../kinds/planned-kind.js';

/** 35 CascadingSelect: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const cascadingSelect = plannedKind({ code: '35', name: 'CascadingSelect', valueKind: 'reference', column: 'json', plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
