import { plannedKind } from '../kinds/planned-kind.js';

/** 50 APIQuery: registered with its storage; its behaviour arrives with the workflow issue (API integrations). */
export const apiQuery = plannedKind({ code: '50', name: 'APIQuery', valueKind: 'json', column: 'json', plannedFor: 'the workflow issue (API integrations)' });
