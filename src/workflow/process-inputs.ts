import { DateTime } from 'luxon';
import type { Parameter } from '../modules/workflows/index.js';
import { AppError } from '../shared/app-error.js';
import { TriggerType, type TriggerSpec } from './definition.js';

/**
 * Reads the inputs a process is started with against its declared parameters (facts §7.1): a hook
 * call's flat JSON body (`POST /v3/app/workflow/hooks/{id}`), a sub-process node's resolved
 * inputs when it runs, and a sub-process node's literals when it is saved. One set of rules for all
 * three. Each input by its name or alias; a missing required input is 10001 naming it, a value of
 * the wrong kind 10002 naming it and saying what was expected. Values come out in one form per
 * type: text; a number; a date `YYYY-MM-DD` or date-time `YYYY-MM-DD HH:mm`; a checkbox
 * true/false; a radio's option text; members, departments, org roles and attachment URLs as lists
 * of strings; arrays; objects and object arrays read against their children. Values as the record
 * API reads them are understood too (a DateTime's ISO instant, `[{accountId}]`, a single select's
 * `[{key, value}]`), so that a field of a record can feed an input.
 */

type Body = Record<string, unknown>;

/** One input that cannot be taken: which (`lines[1].sku`), why, and of which kind. */
export interface InputProblem {
  input: string;
  reason: string;
  kind: 'missing' | 'unknown' | 'invalid';
}

/** Thrown inside the readers of one value; the walk reports it. */
class Rejected extends Error {
  constructor(readonly problem: InputProblem) {
    super(problem.reason);
  }
}

/** What a reading reports a problem to: the hook throws at the first, a check collects them all. */
type Report = (problem: InputProblem) => void;

interface Reading {
  strict: boolean;
  timeZone: string;
  report: Report;
}

/**
 * A value given, but known only when the process starts (a sub-process's reference to a field):
 * present for the required inputs, of no type yet.
 */
export const GIVEN_LATER: unique symbol = Symbol('given when the process starts');

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(label: string, expected: string, value: unknown): Rejected {
  return new Rejected({ input: label, kind: 'invalid', reason: `expected ${expected}, got ${JSON.stringify(value)?.slice(0, 60)}` });
}

const DATE_FORMATS = ['yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss', "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"];
/** An ISO 8601 date-time that names its offset (a DateTime field's value): an instant, read as the wall time in the zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function dateOf(value: unknown, label: string, timeZone: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && DateTime.fromFormat(text, 'yyyy-MM-dd').isValid) return text;
  for (const format of DATE_FORMATS) {
    const parsed = DateTime.fromFormat(text, format);
    if (parsed.isValid) return parsed.toFormat('yyyy-MM-dd HH:mm');
  }
  const instant = INSTANT.test(text) ? DateTime.fromISO(text, { zone: timeZone }) : null;
  if (instant?.isValid) return instant.toFormat('yyyy-MM-dd HH:mm');
  throw bad(label, 'a date "YYYY-MM-DD" or date-time "YYYY-MM-DD HH:mm"', value);
}

/** The keys a record's read shape names a member, department or role by. */
const ID_KEYS = ['accountId', 'departmentId', 'roleId', 'id'];

function idsOf(value: unknown, label: string, what: string): string[] {
  const list = (Array.isArray(value) ? value : [value]).map((item: unknown) => (isObject(item) ? ID_KEYS.map((key) => item[key]).find((id) => id !== undefined) : item));
  if (list.some((id) => typeof id !== 'string' || id.trim() === '')) throw bad(label, `${what} (a string, or a list of strings)`, value);
  return (list as string[]).map((id) => id.trim());
}

function checkboxOf(value: unknown, label: string): boolean {
  if (value === true || value === 1 || value === '1' || value === 'true' || value === 'True') return true;
  if (value === false || value === 0 || value === '0' || value === 'false' || value === 'False') return false;
  throw bad(label, 'a checkbox value: 1 or 0, true or false', value);
}

function radioOf(parameter: Parameter, given: unknown, label: string): string {
  // A single select reads as [{key, value}]: one option, taken by its text.
  const one: unknown = Array.isArray(given) && given.length === 1 ? given[0] : given;
  const value = isObject(one) && typeof one.value === 'string' ? one.value : one;
  if (typeof value !== 'string' && typeof value !== 'number') throw bad(label, 'an option text', given);
  const text = String(value);
  const options = parameter.options ?? [];
  if (options.length === 0) return text;
  const option = options.find((o) => o.value === text) ?? options.find((o) => o.key === text);
  if (!option) throw new Rejected({ input: label, kind: 'invalid', reason: `"${text.slice(0, 60)}" is not an option; options are ${options.map((o) => `"${o.value}"`).join(', ')}` });
  return option.value;
}

function attachmentsOf(value: unknown, label: string): string[] {
  const list = (Array.isArray(value) ? value : [value]).map((file) => (isObject(file) ? file.url : file));
  if (list.some((url) => typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url))) throw bad(label, 'file URLs (http or https), or {url} objects', value);
  return list as string[];
}

function valueOf(parameter: Parameter, value: unknown, label: string, reading: Reading): unknown {
  switch (parameter.type) {
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) throw bad(label, 'a number', value);
      return number;
    }
    case 'date':
      return dateOf(value, label, reading.timeZone);
    case 'checkbox':
      return checkboxOf(value, label);
    case 'radio':
      return radioOf(parameter, value, label);
    case 'member':
      return idsOf(value, label, 'member account ids');
    case 'department':
      return idsOf(value, label, 'department ids');
    case 'org_role':
      return idsOf(value, label, 'organization role ids');
    case 'attachment':
      return attachmentsOf(value, label);
    case 'array':
      if (!Array.isArray(value) || value.some((item) => isObject(item) || Array.isArray(item))) throw bad(label, 'a list of texts, numbers or booleans', value);
      return value;
    case 'object':
      if (!isObject(value)) throw bad(label, 'an object', value);
      return parameter.children?.length ? readLevel(parameter.children, value, reading, `${label}.`) : value;
    case 'object_array':
      if (!Array.isArray(value) || value.some((item) => !isObject(item))) throw bad(label, 'a list of objects', value);
      return parameter.children?.length ? value.map((item, i) => readLevel(parameter.children!, item as Body, reading, `${label}[${i}].`)) : value;
    default:
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value !== 'string') throw bad(label, 'text', value);
      return value;
  }
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** One level of inputs (the top, or an object's children), each problem reported, the values read. */
function readLevel(parameters: readonly Parameter[], body: Body, reading: Reading, prefix: string): Body {
  const values: Body = {};
  const known = new Set<string>();
  for (const parameter of parameters) {
    known.add(parameter.name);
    if (parameter.alias) known.add(parameter.alias);
    const key = !isEmpty(body[parameter.name]) || !parameter.alias ? parameter.name : parameter.alias;
    const given = body[key];
    if (isEmpty(given)) {
      if (parameter.required) reading.report({ input: `${prefix}${parameter.name}`, kind: 'missing', reason: 'is required' });
      if (parameter.default !== undefined) values[parameter.name] = parameter.default;
      continue;
    }
    if (given === GIVEN_LATER) continue;
    try {
      // Named as given: the caller wrote the alias, the message says the alias.
      values[parameter.name] = valueOf(parameter, given, `${prefix}${key}`, reading);
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      reading.report(error.problem);
    }
  }
  for (const [key, value] of Object.entries(body)) {
    if (known.has(key)) continue;
    if (reading.strict) reading.report({ input: `${prefix}${key.slice(0, 60)}`, kind: 'unknown', reason: `no such input${parameters.length > 0 ? `; inputs are ${parameters.map((p) => p.name).join(', ')}` : ''}` });
    else values[key] = value;
  }
  return values;
}

/** A problem as the error of a hook call: 10001 for an input missing or unknown, 10002 for a value of the wrong kind. */
function failure(problem: InputProblem): AppError {
  if (problem.kind === 'missing') return AppError.invalidParameters(`${problem.input} ${problem.reason}`);
  const message = `${problem.input}: ${problem.reason}`;
  return problem.kind === 'invalid' ? AppError.invalidValue(message) : AppError.invalidParameters(message);
}

/**
 * The inputs of a call, by parameter name; throws the first problem (an `AppError`). `strict` (API
 * processes) refuses keys that name no input; a webhook (not strict) keeps them as sent. Instants
 * given to date inputs are read as wall times in `timeZone`.
 * @example readInputs([{ name: 'amount', type: 'number', required: true, desc: '' }], { amount: '12' }, { strict: true, timeZone: 'UTC' }) // { amount: 12 }
 */
export function readInputs(parameters: readonly Parameter[], body: Body, how: { strict: boolean; timeZone: string }): Body {
  return readLevel(parameters, body, { ...how, report: (problem) => { throw failure(problem); } }, '');
}

/**
 * Every problem of the inputs an API process would be started with (strictly: unknown keys are
 * problems), without throwing. A value `GIVEN_LATER` counts as given and is not checked.
 * @example inputProblems([{ name: 'n', type: 'number', required: true, desc: '' }], { n: 'x', m: 1 }) // [{ input: 'n', kind: 'invalid', … }, { input: 'm', kind: 'unknown', … }]
 */
export function inputProblems(parameters: readonly Parameter[], body: Body): InputProblem[] {
  const problems: InputProblem[] = [];
  // The zone only shapes the values read, which a check throws away.
  readLevel(parameters, body, { strict: true, timeZone: 'UTC', report: (problem) => problems.push(problem) }, '');
  return problems;
}

/** The declared inputs of an API process (`inputs`) or a webhook (`params`) from its trigger; none for other triggers. */
export function inputsOf(trigger: Pick<TriggerSpec, 'type' | 'config'>): Parameter[] {
  const list = trigger.type === TriggerType.api ? trigger.config.inputs : trigger.type === TriggerType.webhook ? trigger.config.params : undefined;
  return Array.isArray(list) ? (list as Parameter[]) : [];
}

/** A started run's trigger fields: each input read by its name and by its alias, so that nodes may name either. */
export function inputFields(parameters: readonly Parameter[], inputs: Body): Body {
  const fields = { ...inputs };
  for (const p of parameters) if (p.alias && p.name in inputs) fields[p.alias] = inputs[p.name];
  return fields;
}
