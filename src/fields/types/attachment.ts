import { plannedKind } from '../kinds/planned-kind.js';

/** 14 Attachment: registered with its storage; its behaviour arrives with the "records in full" issue (relations, computed fields, attachments). */
export const attachment = plannedKind({ code: '14', name: 'Attachment', valueKind: 'json', column: 'json', plannedFor: 'the "records in full" issue (relations, computed fields, attachments)' });
