import type { FilterScope } from '../../../query/index.js';
import type { WorksheetSchema } from '../../worksheets/index.js';

/** A problem with a trigger's config, at a path inside it. */
export interface TriggerProblem {
  path: string;
  message: string;
  /**
   * A required setting not given yet: a draft may be saved without it (a worksheet trigger made
   * before its worksheet is chosen), publishing may not.
   */
  missing?: boolean;
}

/** What a trigger's check may ask: the application's worksheets, and how filters compile. */
export interface TriggerCheckContext {
  /** A worksheet of the application by id or alias; null if none. */
  worksheet(key: string): Promise<WorksheetSchema | null>;
  filterScope(schema: WorksheetSchema): FilterScope;
  /** The server's time zone (`TIME_ZONE`): schedules without one run in it. */
  timeZone: string;
}

/**
 * A kind of trigger (public start type 1, 5, 6, 7 or 17): how its config is read, as given (the
 * public flat keys included), into the stored form the runner and the trigger cache read.
 * @example await worksheetTrigger.prepare({ worksheet: 'orders', event: 'create' }, at) // → { config: { worksheetId: '6650…', event: 'create', triggerFields: [] }, problems: [] }
 */
export interface TriggerKind {
  type: number;
  /** Its public name, accepted as `trigger.type`. */
  name: string;
  prepare(raw: Record<string, unknown>, at: TriggerCheckContext): Promise<{ config: Record<string, unknown>; problems: TriggerProblem[] }>;
  /** The worksheet the trigger watches (worksheet and date-field triggers), from its stored config. */
  worksheetOf(config: Record<string, unknown>): string | null;
}

/** The first of `keys` the config gives (camelCase, or the public snake_case spelling). */
export function pick(raw: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) if (raw[key] !== undefined) return raw[key];
  return undefined;
}

/** The worksheet a config names (`worksheetId`, or the public `worksheet`), checked to exist in the application. */
export async function pickWorksheet(raw: Record<string, unknown>, at: TriggerCheckContext, problems: TriggerProblem[], purpose: string): Promise<{ key: string | null; schema: WorksheetSchema | null }> {
  const key = pick(raw, 'worksheetId', 'worksheet', 'worksheet_id');
  if (key === undefined || key === null || key === '') {
    problems.push({ path: 'worksheetId', message: `is required: the worksheet ${purpose}`, missing: true });
    return { key: null, schema: null };
  }
  if (typeof key !== 'string') {
    problems.push({ path: 'worksheetId', message: 'must be a worksheet id or alias (a string)' });
    return { key: null, schema: null };
  }
  const schema = await at.worksheet(key);
  if (!schema) problems.push({ path: 'worksheetId', message: `no worksheet "${key.slice(0, 80)}" in this application` });
  return { key, schema };
}

/** A whole number from a number or a numeric string, or undefined. */
export function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
