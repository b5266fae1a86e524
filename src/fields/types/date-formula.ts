import { AppError } from '../../shared/app-error.js';
import { defineFieldType } from '../define-field-type.js';
import type { ComputationInput, FieldMeta } from '../field-type.js';
import { referencedKeys } from '../computed/field-references.js';
import { dateDifference } from '../computed/formula-expression.js';
import { preparePrecision, readDecimal } from '../kinds/number-kind.js';
import { show } from '../kinds/value-errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
const UNITS = ['minute', 'hour', 'day', 'month', 'year'] as const;
const DATE_KINDS = new Set(['date', 'datetime']);

type Mode = 'difference' | 'offset';

function modeOf(field: FieldMeta): Mode {
  return field.config.mode === 'offset' ? 'offset' : 'difference';
}

function unitOf(field: FieldMeta): (typeof UNITS)[number] {
  return (UNITS as readonly string[]).includes(String(field.config.unit)) ? (field.config.unit as (typeof UNITS)[number]) : 'day';
}

/** A date or date-time input as epoch milliseconds (a date at 00:00 UTC), or null when empty. */
function instantOf(input: ComputationInput | undefined): number | null {
  if (!input || input.stored === null) return null;
  if (input.field.fieldType.valueKind === 'date') return Date.parse(`${String(input.stored)}T00:00:00Z`);
  return typeof input.stored === 'number' ? input.stored : null;
}

function firstInput(field: FieldMeta, key: string, inputs: Map<string, ComputationInput>): ComputationInput | undefined {
  const [id] = referencedKeys(String(field.config[key] ?? ''));
  return id === undefined ? undefined : inputs.get(id);
}

/** An instant moved by whole units; months and years move the calendar (31 January + 1 month = 3 March, as JavaScript dates do). */
function moved(instant: number, amount: number, unit: (typeof UNITS)[number]): number {
  if (unit in UNIT_MS) return instant + amount * UNIT_MS[unit];
  const date = new Date(instant);
  if (unit === 'month') date.setUTCMonth(date.getUTCMonth() + amount);
  else date.setUTCFullYear(date.getUTCFullYear() + amount);
  return date.getTime();
}

/**
 * 38 DateFormula: computed from date or date-time fields of the same record. `config.mode`
 * `"difference"` (the default): whole `unit`s (minute, hour, day, month, year; default day) from
 * `config.start` to `config.end` (`$field$` each), a number. `"offset"`: `config.date` (`$field$`)
 * moved by `config.offset` (a number, or `$numberField$`) `unit`s, a date when the source is a date
 * moved by days, months or years, a date-time otherwise. Stored as a number (epoch milliseconds for
 * dates), so it sorts; filters: isempty / isnotempty.
 */
export const dateFormula = defineFieldType({
  code: '38',
  name: 'DateFormula',
  valueKind: 'number',
  column: 'real',
  filterKind: 'presence',
  availability: 'ready',
  readOnly: true,
  indexable: true,
  prepare(draft) {
    const { config } = preparePrecision(draft);
    const mode = config.mode === undefined ? (config.date !== undefined ? 'offset' : 'difference') : config.mode;
    if (mode !== 'difference' && mode !== 'offset') throw AppError.invalidValue(`field "${draft.name}": config.mode must be "difference" or "offset", got ${show(config.mode)}`);
    if (config.unit !== undefined && !(UNITS as readonly unknown[]).includes(config.unit)) {
      throw AppError.invalidValue(`field "${draft.name}": config.unit must be one of ${UNITS.join(', ')}, got ${show(config.unit)}`);
    }
    const needed = mode === 'difference' ? ['start', 'end'] : ['date'];
    for (const key of needed) {
      if (typeof config[key] !== 'string' || referencedKeys(config[key] as string).length !== 1) {
        throw AppError.invalidParameters(`field "${draft.name}": config.${key} is required: one field as $idOrAlias$`);
      }
    }
    if (mode === 'offset' && typeof config.offset !== 'number' && !(typeof config.offset === 'string' && referencedKeys(config.offset).length === 1)) {
      throw AppError.invalidParameters(`field "${draft.name}": config.offset is required: a number of units, or a number field as $idOrAlias$`);
    }
    return { options: [], config: { ...config, mode } };
  },
  read(stored, field) {
    if (stored === null) return null;
    const result = field.config.resultType;
    if (result === 'date') return new Date(stored as number).toISOString().slice(0, 10);
    if (result === 'datetime') return new Date(stored as number).toISOString();
    return readDecimal(stored, field);
  },
  computed: {
    kind: 'row',
    referenceKeys: ['start', 'end', 'date', 'offset'],
    inputs: (field) => referencedKeys(['start', 'end', 'date', 'offset'].map((key) => (typeof field.config[key] === 'string' ? field.config[key] : '')).join(' ')),
    refusesInput: (input) => (DATE_KINDS.has(input.fieldType.valueKind) || input.fieldType.valueKind === 'number' ? null : `a ${input.fieldType.name} field holds no date or number`),
    settle(field, inputs) {
      const byId = new Map(inputs.map((input) => [input.id, input]));
      const one = (key: string) => byId.get(referencedKeys(String(field.config[key] ?? ''))[0] ?? '');
      const dates = modeOf(field) === 'difference' ? [one('start'), one('end')] : [one('date')];
      for (const input of dates) {
        if (input && !DATE_KINDS.has(input.fieldType.valueKind)) throw AppError.invalidValue(`field "${field.name}": "${input.name}" is ${input.fieldType.name}, not a date`);
      }
      const offsetField = modeOf(field) === 'offset' && typeof field.config.offset === 'string' ? one('offset') : undefined;
      if (offsetField && offsetField.fieldType.valueKind !== 'number') throw AppError.invalidValue(`field "${field.name}": the offset "${offsetField.name}" is ${offsetField.fieldType.name}, not a number`);
      if (modeOf(field) === 'difference') return { resultType: 'number' };
      const dateOnly = dates[0]?.fieldType.valueKind === 'date' && !['minute', 'hour'].includes(unitOf(field));
      return { resultType: dateOnly ? 'date' : 'datetime' };
    },
    evaluate(field, inputs) {
      const unit = unitOf(field);
      if (modeOf(field) === 'difference') {
        const start = instantOf(firstInput(field, 'start', inputs));
        const end = instantOf(firstInput(field, 'end', inputs));
        if (start === null || end === null) return null;
        const whole = unit in UNIT_MS ? Math.trunc((end - start) / UNIT_MS[unit]) : dateDifference(start, end, unit === 'month' ? 'M' : 'Y');
        return Number.isFinite(whole) ? whole : null;
      }
      const date = instantOf(firstInput(field, 'date', inputs));
      const offset = typeof field.config.offset === 'number' ? field.config.offset : firstInput(field, 'offset', inputs)?.stored;
      if (date === null || typeof offset !== 'number') return null;
      return moved(date, Math.trunc(offset), unit);
    },
  },
});
