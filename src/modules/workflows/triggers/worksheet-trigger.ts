import { AppError } from '../../../shared/app-error.js';
import { compileFilter } from '../../../query/index.js';
import { TriggerType, type WorksheetEvent, type WorksheetTriggerConfig } from '../../../workflow/index.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { pick, pickWorksheet, type TriggerCheckContext, type TriggerKind, type TriggerProblem } from './trigger-kind.js';

const EVENTS: readonly WorksheetEvent[] = ['create', 'update', 'create_or_update', 'delete'];

/** Event names as given: ours, camelCase, and the public worksheet trigger ids (1 add, 2 add or edit, 3 delete, 4 only edit). */
const EVENT_SPELLINGS: ReadonlyMap<string, WorksheetEvent> = new Map([
  ...EVENTS.map((e) => [e, e] as const),
  ['createorupdate', 'create_or_update'],
  ['1', 'create'],
  ['2', 'create_or_update'],
  ['3', 'delete'],
  ['4', 'update'],
]);

function eventOf(value: unknown, problems: TriggerProblem[]): WorksheetEvent | undefined {
  if (value === undefined || value === null || value === '') {
    problems.push({ path: 'event', message: `is required: ${EVENTS.join(', ')}`, missing: true });
    return undefined;
  }
  const event = EVENT_SPELLINGS.get(String(value).trim().toLowerCase().replace(/[-\s]/g, '_'));
  if (!event) problems.push({ path: 'event', message: `unknown event ${JSON.stringify(value)}; events are ${EVENTS.join(', ')} (or the public ids 1 create, 2 create_or_update, 3 delete, 4 update)` });
  return event;
}

/** Field ids (or aliases, stored as ids) whose change triggers an update. */
function triggerFieldsOf(value: unknown, schema: WorksheetSchema | null, event: WorksheetEvent | undefined, problems: TriggerProblem[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'string')) {
    problems.push({ path: 'triggerFields', message: 'must be a list of field ids' });
    return [];
  }
  if (value.length > 0 && (event === 'create' || event === 'delete')) {
    problems.push({ path: 'triggerFields', message: `only updates are narrowed by fields; the event is ${event}` });
  }
  return (value as string[]).map((key, i) => {
    const field = schema?.byKey.get(key);
    if (schema && !field) problems.push({ path: `triggerFields[${i}]`, message: `no field "${key.slice(0, 80)}" in the worksheet "${schema.name}"` });
    return field?.id ?? key;
  });
}

/** The filter compiler's problem, with its own leading `filter…` path taken as the problem's path. */
function filterProblem(error: AppError): TriggerProblem {
  const match = /^(filter[^\s:]*)(?::\s*|\s+)([\s\S]*)$/.exec(error.message);
  return match ? { path: match[1], message: match[2] } : { path: 'filter', message: error.message };
}

/**
 * Worksheet events (public type 1): a record created, updated, created or updated, or deleted;
 * updates narrowed to changes of `triggerFields`; records narrowed by `filter` (the list filter
 * language), compiled against the worksheet when saved so that a bad filter is found then.
 */
export const worksheetTrigger: TriggerKind = {
  type: TriggerType.worksheet,
  name: 'worksheet',
  async prepare(raw, at: TriggerCheckContext) {
    const problems: TriggerProblem[] = [];
    const { key, schema } = await pickWorksheet(raw, at, problems, 'whose records trigger the workflow');
    const event = eventOf(pick(raw, 'event', 'triggerId', 'trigger_id'), problems);
    const triggerFields = triggerFieldsOf(pick(raw, 'triggerFields', 'trigger_fields'), schema, event, problems);
    const filter = pick(raw, 'filter', 'triggerFilter', 'trigger_filter');
    if (schema && filter !== undefined && filter !== null) {
      try {
        compileFilter(at.filterScope(schema), filter, 'filter');
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        problems.push(filterProblem(error));
      }
    }
    const config: Partial<WorksheetTriggerConfig> = {
      worksheetId: schema?.id ?? key ?? undefined,
      event,
      triggerFields,
      ...(filter !== undefined && filter !== null ? { filter } : {}),
    };
    return { config: JSON.parse(JSON.stringify(config)) as Record<string, unknown>, problems };
  },
  worksheetOf: (config) => (typeof config.worksheetId === 'string' ? config.worksheetId : null),
};
