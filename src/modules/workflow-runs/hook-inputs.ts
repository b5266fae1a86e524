import { DateTime } from 'luxon';
import { AppError } from '../../shared/app-error.js';
import type { Parameter } from '../workflows/index.js';

/**
 * Reads a hook call's flat JSON body against the process's declared inputs (facts §7.1): each
 * input by its name or alias; a missing required input is 10001 naming it, a value of the wrong
 * kind 10002 naming it and saying what was expected. Values come out in one form per type: text;
 * a number; a date `YYYY-MM-DD` or date-time `YYYY-MM-DD HH:mm`; a checkbox true/false; a radio's
 * option text; members, departments, org roles and attachment URLs as lists of strings; arrays;
 * objects and object arrays read against their children.
 */

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(label: string, expected: string, value: unknown): AppError {
  return AppError.invalidValue(`${label}: expected ${expected}, got ${JSON.stringify(value)?.slice(0, 60)}`);
}

const DATE_FORMATS = ['yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss', "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"];

function dateOf(value: unknown, label: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && DateTime.fromFormat(text, 'yyyy-MM-dd').isValid) return text;
  for (const format of DATE_FORMATS) {
    const parsed = DateTime.fromFormat(text, format);
    if (parsed.isValid) return parsed.toFormat('yyyy-MM-dd HH:mm');
  }
  throw bad(label, 'a date "YYYY-MM-DD" or date-time "YYYY-MM-DD HH:mm"', value);
}

function idsOf(value: unknown, label: string, what: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.some((id) => typeof id !== 'string' || id.trim() === '')) throw bad(label, `${what} (a string, or a list of strings)`, value);
  return (list as string[]).map((id) => id.trim());
}

function checkboxOf(value: unknown, label: string): boolean {
  if (value === true || value === 1 || value === '1' || value === 'true' || value === 'True') return true;
  if (value === false || value === 0 || value === '0' || value === 'false' || value === 'False') return false;
  throw bad(label, 'a checkbox value: 1 or 0, true or false', value);
}

function radioOf(parameter: Parameter, value: unknown, label: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw bad(label, 'an option text', value);
  const text = String(value);
  const options = parameter.options ?? [];
  if (options.length === 0) return text;
  const option = options.find((o) => o.value === text) ?? options.find((o) => o.key === text);
  if (!option) throw AppError.invalidValue(`${label}: "${text.slice(0, 60)}" is not an option; options are ${options.map((o) => `"${o.value}"`).join(', ')}`);
  return option.value;
}

function attachmentsOf(value: unknown, label: string): string[] {
  const list = (Array.isArray(value) ? value : [value]).map((file) => (isObject(file) ? file.url : file));
  if (list.some((url) => typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url))) throw bad(label, 'file URLs (http or https), or {url} objects', value);
  return list as string[];
}

function valueOf(parameter: Parameter, value: unknown, label: string, strict: boolean): unknown {
  switch (parameter.type) {
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) throw bad(label, 'a number', value);
      return number;
    }
    case 'date':
      return dateOf(value, label);
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
      return parameter.children?.length ? readInputs(parameter.children, value, strict, `${label}.`) : value;
    case 'object_array':
      if (!Array.isArray(value) || value.some((item) => !isObject(item))) throw bad(label, 'a list of objects', value);
      return parameter.children?.length ? value.map((item, i) => readInputs(parameter.children!, item as Body, strict, `${label}[${i}].`)) : value;
    default:
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value !== 'string') throw bad(label, 'text', value);
      return value;
  }
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * The inputs of a call, by parameter name. `strict` (API processes) refuses keys that name no
 * input; a webhook (not strict) keeps them as sent.
 * @example readInputs([{ name: 'amount', type: 'number', required: true }], { amount: '12' }, true) // { amount: 12 }
 */
export function readInputs(parameters: Parameter[], body: Body, strict: boolean, prefix = ''): Body {
  const values: Body = {};
  const known = new Set<string>();
  for (const parameter of parameters) {
    known.add(parameter.name);
    if (parameter.alias) known.add(parameter.alias);
    const label = `${prefix}${parameter.name}`;
    const given = !isEmpty(body[parameter.name]) ? body[parameter.name] : parameter.alias ? body[parameter.alias] : undefined;
    if (isEmpty(given)) {
      if (parameter.required) throw AppError.invalidParameters(`${label} is required`);
      if (parameter.default !== undefined) values[parameter.name] = parameter.default;
      continue;
    }
    values[parameter.name] = valueOf(parameter, given, label, strict);
  }
  for (const [key, value] of Object.entries(body)) {
    if (known.has(key)) continue;
    if (strict) throw AppError.invalidParameters(`${prefix}${key.slice(0, 60)}: no such input${parameters.length > 0 ? `; inputs are ${parameters.map((p) => p.name).join(', ')}` : ''}`);
    values[key] = value;
  }
  return values;
}
