import { AppError } from '../../../shared/app-error.js';
import { apiTrigger } from './api-trigger.js';
import { dateFieldTrigger } from './date-field-trigger.js';
import { scheduleTrigger } from './schedule-trigger.js';
import type { TriggerKind } from './trigger-kind.js';
import { webhookTrigger } from './webhook-trigger.js';
import { worksheetTrigger } from './worksheet-trigger.js';

export type { TriggerCheckContext, TriggerKind, TriggerProblem } from './trigger-kind.js';
export { isRecord } from './trigger-kind.js';

const KINDS: readonly TriggerKind[] = [worksheetTrigger, scheduleTrigger, dateFieldTrigger, webhookTrigger, apiTrigger];

/** Public spellings of the trigger types besides their numbers and our names. */
const SPELLINGS: ReadonlyMap<string, number> = new Map([
  ['sheet', 1],
  ['worksheet_event', 1],
  ['loop', 5],
  ['timer', 5],
  ['date', 6],
  ['datefield', 6],
  ['pbp', 17],
  ['pbc', 17],
  ...KINDS.map((k) => [k.name, k.type] as const),
]);

/** Start types of the public service that Tabularium does not trigger (facts §7.3). */
const UNSUPPORTED: ReadonlyMap<number, string> = new Map([
  [8, 'custom action'],
  [9, 'approval start'],
  [20, 'user event'],
  [21, 'department event'],
  [23, 'external user event'],
  [24, 'org role event'],
  [45, 'loop process'],
  [49, 'chatbot'],
]);

const SUPPORTED = KINDS.map((k) => `${k.type} ${k.name}`).join(', ');

/**
 * The trigger kind a `type` names: its number (or numeric string) or its public name.
 * @example triggerKindOf('webhook').type === 7; triggerKindOf(1).name === 'worksheet'
 */
export function triggerKindOf(value: unknown, path = 'trigger.type'): TriggerKind {
  if (value === undefined || value === null || value === '') throw AppError.invalidParameters(`${path} is required: ${SUPPORTED}`);
  const text = String(value).trim().toLowerCase().replace(/[-\s]/g, '_');
  const code = /^\d+$/.test(text) ? Number(text) : SPELLINGS.get(text);
  const kind = KINDS.find((k) => k.type === code);
  if (kind) return kind;
  const unsupported = code === undefined ? undefined : UNSUPPORTED.get(code);
  throw AppError.invalidValue(`${path}: ${unsupported ? `the ${unsupported} trigger (${code}) is not supported` : `unknown trigger type ${JSON.stringify(value)}`}; use ${SUPPORTED}`);
}

/** The kind of a stored trigger type. */
export function storedTriggerKind(type: number): TriggerKind {
  return triggerKindOf(type);
}
