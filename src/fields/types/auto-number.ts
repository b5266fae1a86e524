import { DateTime } from 'luxon';
import { AppError } from '../../shared/app-error.js';
import { defineFieldType } from '../define-field-type.js';
import type { FieldMeta, RecordContext } from '../field-type.js';
import { badFieldValue, show } from '../kinds/value-errors.js';

/** One segment of an auto number rule, as the public interface writes it. */
type Segment = { type: 'sequence'; length?: number; repeat?: Repeat } | { type: 'createdTime'; format: string } | { type: 'text'; value: string };
type Repeat = 'never' | 'day' | 'month' | 'year';

const REPEATS: readonly Repeat[] = ['never', 'day', 'month', 'year'];
/** Moment-style tokens (as the public editor writes them) to luxon's. */
const TOKENS: ReadonlyArray<[RegExp, string]> = [[/YYYY/g, 'yyyy'], [/YY/g, 'yy'], [/DD/g, 'dd']];
const FORMAT = /^[YMDHms\-_/.: ]{1,32}$/;

function rule(field: FieldMeta): Segment[] | null {
  return Array.isArray(field.config.rule) ? (field.config.rule as Segment[]) : null;
}

function sequenceOf(segments: Segment[]): Extract<Segment, { type: 'sequence' }> {
  return segments.find((s) => s.type === 'sequence') as Extract<Segment, { type: 'sequence' }>;
}

/** The period a record's number counts in: the whole field, or the day, month or year of its creation (in `timeZone`). */
function periodOf(repeat: Repeat | undefined, now: number, timeZone: string): string | null {
  if (!repeat || repeat === 'never') return null;
  const format = { day: 'yyyyMMdd', month: 'yyyyMM', year: 'yyyy' }[repeat];
  return DateTime.fromMillis(now, { zone: timeZone }).toFormat(format);
}

function checkRule(name: string, value: unknown): Segment[] {
  const fail = (problem: string): never => {
    throw AppError.invalidValue(`field "${name}": config.rule ${problem}`);
  };
  if (!Array.isArray(value) || value.length === 0 || value.length > 10) return fail('must be a list of 1 to 10 segments');
  const segments = value.map((segment: unknown, i): Segment => {
    const s = (typeof segment === 'object' && segment !== null ? segment : {}) as Record<string, unknown>;
    if (s.type === 'sequence') {
      if (s.length !== undefined && (typeof s.length !== 'number' || !Number.isInteger(s.length) || s.length < 0 || s.length > 20)) fail(`[${i}].length must be a whole number from 0 to 20`);
      if (s.repeat !== undefined && !REPEATS.includes(s.repeat as Repeat)) fail(`[${i}].repeat must be one of ${REPEATS.join(', ')}, got ${show(s.repeat)}`);
      return { type: 'sequence', ...(s.length === undefined ? {} : { length: s.length as number }), ...(s.repeat === undefined ? {} : { repeat: s.repeat as Repeat }) };
    }
    if (s.type === 'createdTime') {
      if (typeof s.format !== 'string' || !FORMAT.test(s.format)) fail(`[${i}].format must be a date format of Y M D H m s (e.g. "YYYYMMDD"), got ${show(s.format)}`);
      return { type: 'createdTime', format: s.format as string };
    }
    if (s.type === 'text') {
      if (typeof s.value !== 'string' || s.value.length > 50) fail(`[${i}].value must be text of at most 50 characters`);
      return { type: 'text', value: s.value as string };
    }
    return fail(`[${i}].type must be sequence, createdTime or text, got ${show(s.type)}`);
  });
  if (segments.filter((s) => s.type === 'sequence').length !== 1) fail('must hold exactly one sequence segment');
  return segments;
}

/**
 * 33 AutoNumber: a number the system gives each new record, without gaps or duplicates, in insertion
 * order. Without a rule it reads as the number (zero-padded to `config.length`). With `config.rule`
 * (the public segments: `{type: "sequence", length, repeat: never|day|month|year}`, `{type:
 * "createdTime", format}`, `{type: "text", value}`) it reads as the segments joined, the sequence
 * counting from 1 again every day, month or year of creation (in `TIME_ZONE`). The number is stored;
 * the text is composed when it is read.
 */
export const autoNumber = defineFieldType({
  code: '33',
  name: 'AutoNumber',
  valueKind: 'text',
  column: 'integer',
  availability: 'ready',
  readOnly: true,
  canBeTitle: true,
  prepare(draft, previous) {
    const config = { ...draft.config };
    if (config.rule !== undefined) config.rule = checkRule(draft.name, config.rule);
    // A sequence's periods are fixed once records are numbered in them.
    const before = previous && rule(previous) ? sequenceOf(rule(previous)!).repeat ?? 'never' : 'never';
    const after = Array.isArray(config.rule) ? sequenceOf(config.rule as Segment[]).repeat ?? 'never' : 'never';
    if (previous && before !== after) throw AppError.invalidValue(`field "${draft.name}": the sequence's repeat cannot change from ${before} to ${after} (numbers already given would clash)`);
    return { options: [], config };
  },
  // An empty value is accepted and ignored: for a system-assigned value it is no change, not a clearing.
  write(_value, _field, ctx) {
    throw badFieldValue(ctx.label, 'an AutoNumber is assigned by the system and cannot be written');
  },
  read(stored, field, refs, record?: RecordContext) {
    if (stored === null) return '';
    const segments = rule(field);
    if (!segments) {
      const length = typeof field.config.length === 'number' ? field.config.length : 0;
      return String(stored).padStart(length, '0');
    }
    const created = record ? DateTime.fromMillis(record.createdAt, { zone: refs.timeZone ?? 'UTC' }) : null;
    return segments
      .map((segment) => {
        if (segment.type === 'text') return segment.value;
        if (segment.type === 'sequence') return String(stored).padStart(segment.length ?? 0, '0');
        return created ? created.toFormat(TOKENS.reduce((format, [token, luxon]) => format.replace(token, luxon), segment.format)) : '';
      })
      .join('');
  },
  async assignOnInsert(field, count, io) {
    const segments = rule(field);
    const period = segments ? periodOf(sequenceOf(segments).repeat, io.now, io.timeZone) : null;
    // Each period has its own counter row; reserving in the insert's transaction keeps numbers gapless and unique.
    const first = await io.reserveSequence(period ? `${field.id}:${period}` : field.id, count);
    return Array.from({ length: count }, (_, i) => first + i);
  },
});
