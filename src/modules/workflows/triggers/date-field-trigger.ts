import { TriggerType } from '../../../workflow/index.js';
import type { WorksheetSchema } from '../../worksheets/index.js';
import { isRecord, pick, pickWorksheet, wholeNumber, type TriggerKind, type TriggerProblem } from './trigger-kind.js';

const DIRECTIONS = ['on', 'before', 'after'] as const;
const UNITS = ['minute', 'hour', 'day', 'week', 'month'] as const;
const REPEATS = ['none', 'month', 'year'] as const;

function oneOf<T extends string>(value: unknown, allowed: readonly T[], numbered: boolean, path: string, problems: TriggerProblem[]): T | undefined {
  // The public offset types are numbered 0 on, 1 before, 2 after.
  const named = numbered && wholeNumber(value) !== undefined ? allowed[wholeNumber(value)!] : String(value).trim().toLowerCase().replace(/s$/, '');
  if ((allowed as readonly string[]).includes(named as string)) return named as T;
  problems.push({ path, message: `unknown value ${JSON.stringify(value)}; use ${allowed.join(', ')}` });
  return undefined;
}

/** The offset, as `{direction, amount, unit}` or the public flat `offset_type`, `offset_number`, `offset_unit`. */
function offsetOf(raw: Record<string, unknown>, problems: TriggerProblem[]) {
  const nested = isRecord(raw.offset) ? raw.offset : {};
  if (raw.offset !== undefined && raw.offset !== null && !isRecord(raw.offset)) problems.push({ path: 'offset', message: 'must be an object {direction, amount, unit}' });
  const directionValue = pick(nested, 'direction', 'type') ?? pick(raw, 'offsetType', 'offset_type');
  const amountValue = pick(nested, 'amount', 'number', 'value') ?? pick(raw, 'offsetNumber', 'offset_number');
  const unitValue = pick(nested, 'unit') ?? pick(raw, 'offsetUnit', 'offset_unit');
  const direction = directionValue === undefined ? 'on' : oneOf(directionValue, DIRECTIONS, true, 'offset.direction', problems);
  const amount = amountValue === undefined ? 0 : wholeNumber(amountValue);
  if (amount === undefined || amount < 0) problems.push({ path: 'offset.amount', message: 'must be a whole number of at least 0' });
  const unit = unitValue === undefined ? 'day' : oneOf(unitValue, UNITS, false, 'offset.unit', problems);
  return { direction: direction ?? 'on', amount: amount ?? 0, unit: unit ?? 'day' };
}

function dateFieldOf(raw: Record<string, unknown>, schema: WorksheetSchema | null, problems: TriggerProblem[]): string | undefined {
  const key = pick(raw, 'dateFieldId', 'date_field_id', 'dateField', 'fieldId');
  if (key === undefined || key === null || key === '') {
    problems.push({ path: 'dateFieldId', message: 'is required: the date field whose value sets the time', missing: true });
    return undefined;
  }
  if (typeof key !== 'string') {
    problems.push({ path: 'dateFieldId', message: 'must be a field id' });
    return undefined;
  }
  const field = schema?.byKey.get(key);
  if (schema && !field) problems.push({ path: 'dateFieldId', message: `no field "${key.slice(0, 80)}" in the worksheet "${schema.name}"` });
  if (field && field.fieldType.valueKind !== 'date' && field.fieldType.valueKind !== 'datetime') {
    problems.push({ path: 'dateFieldId', message: `"${field.name}" is a ${field.fieldType.name} field; a date field (Date, DateTime, a date formula) is needed` });
  }
  return field?.id ?? key;
}

/**
 * Date field (public type 6): each record of a worksheet runs the workflow at its date field's value,
 * moved by an offset (`before`/`after`/`on`, an amount of minutes to months), at `time` (HH:mm) for
 * fields without a time of day, again every month or year when `repeat` says so.
 */
export const dateFieldTrigger: TriggerKind = {
  type: TriggerType.dateField,
  name: 'date_field',
  async prepare(raw, at) {
    const problems: TriggerProblem[] = [];
    const { key, schema } = await pickWorksheet(raw, at, problems, 'whose records carry the date');
    const dateFieldId = dateFieldOf(raw, schema, problems);
    const offset = offsetOf(raw, problems);
    const time = pick(raw, 'time');
    if (time !== undefined && (typeof time !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(time))) problems.push({ path: 'time', message: 'must be a time of day, HH:mm' });
    const repeatValue = pick(raw, 'repeat');
    const repeat = repeatValue === undefined || repeatValue === null ? 'none' : oneOf(repeatValue, REPEATS, false, 'repeat', problems);
    const config = { worksheetId: schema?.id ?? key ?? undefined, dateFieldId, offset, ...(typeof time === 'string' ? { time } : {}), repeat: repeat ?? 'none' };
    return { config: JSON.parse(JSON.stringify(config)) as Record<string, unknown>, problems };
  },
  worksheetOf: (config) => (typeof config.worksheetId === 'string' ? config.worksheetId : null),
};
