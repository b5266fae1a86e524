import { isRecord, type TriggerProblem } from './trigger-kind.js';

/** The public types of process parameters (facts §7.3). */
export const PARAMETER_TYPES = ['text', 'number', 'date', 'radio', 'checkbox', 'member', 'department', 'org_role', 'attachment', 'object', 'array', 'object_array'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** A declared parameter as stored. */
export interface Parameter {
  name: string;
  type: ParameterType;
  required: boolean;
  alias?: string;
  desc: string;
  default?: unknown;
  options?: Array<{ key: string; value: string }>;
  children?: Parameter[];
}

const ALIAS = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_PARAMETERS = 100;

function optionsOf(value: unknown, path: string, problems: TriggerProblem[]): Parameter['options'] {
  const options = Array.isArray(value) ? value.map((o) => (typeof o === 'string' ? { key: o, value: o } : isRecord(o) && typeof o.value === 'string' ? { key: typeof o.key === 'string' ? o.key : o.value, value: o.value } : null)) : null;
  if (!options || options.length === 0 || options.some((o) => o === null)) {
    problems.push({ path, message: 'a radio parameter needs options: texts, or {key, value}' });
    return undefined;
  }
  return options as Array<{ key: string; value: string }>;
}

function parameterOf(raw: unknown, path: string, withInputFields: boolean, depth: number, problems: TriggerProblem[]): Parameter | null {
  if (!isRecord(raw)) {
    problems.push({ path, message: 'must be an object {name, type, …}' });
    return null;
  }
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (name === '') problems.push({ path: `${path}.name`, message: 'is required' });
  const type = String(raw.type ?? '').trim().toLowerCase() as ParameterType;
  if (!PARAMETER_TYPES.includes(type)) problems.push({ path: `${path}.type`, message: `unknown type ${JSON.stringify(raw.type ?? null)}; types are ${PARAMETER_TYPES.join(', ')}` });
  const parameter: Parameter = { name, type, required: false, desc: typeof (raw.desc ?? raw.description) === 'string' ? String(raw.desc ?? raw.description) : '' };
  if (withInputFields) {
    parameter.required = raw.required === true || raw.required === 1 || raw.required === 'true';
    if (raw.alias !== undefined && raw.alias !== '') {
      if (typeof raw.alias !== 'string' || !ALIAS.test(raw.alias)) problems.push({ path: `${path}.alias`, message: 'must be letters, digits and _, not starting with a digit' });
      else parameter.alias = raw.alias;
    }
    if (raw.default !== undefined) parameter.default = raw.default;
    if (type === 'radio' || raw.options !== undefined) parameter.options = optionsOf(raw.options, `${path}.options`, problems);
  }
  const children = raw.children ?? raw.items;
  if (children !== undefined) {
    if (type !== 'object' && type !== 'object_array') problems.push({ path: `${path}.children`, message: 'only object and object_array parameters have children' });
    else if (depth > 0) problems.push({ path: `${path}.children`, message: 'parameters nest one level deep' });
    else parameter.children = parametersOf(children, `${path}.children`, withInputFields, depth + 1, problems);
  }
  return parameter;
}

/**
 * Declared parameters (an API process's inputs and outputs, a webhook's): names unique, types
 * of the public list, aliases unique, radio options given, children one level deep.
 */
export function parametersOf(raw: unknown, path: string, withInputFields: boolean, depth: number, problems: TriggerProblem[]): Parameter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push({ path, message: 'must be a list of parameters' });
    return [];
  }
  if (raw.length > MAX_PARAMETERS) problems.push({ path, message: `at most ${MAX_PARAMETERS} parameters` });
  const parameters = raw.map((p, i) => parameterOf(p, `${path}[${i}]`, withInputFields, depth, problems)).filter((p): p is Parameter => p !== null);
  const seen = new Set<string>();
  parameters.forEach((p, i) => {
    for (const key of [p.name, ...(p.alias ? [p.alias] : [])]) {
      if (key !== '' && seen.has(key)) problems.push({ path: `${path}[${i}]`, message: `the name or alias "${key}" is used twice` });
      seen.add(key);
    }
  });
  return parameters;
}

/** Parameters inferred from a sample body: each key's type from its value. */
export function inferParameters(sample: Record<string, unknown>, depth = 0): Parameter[] {
  return Object.entries(sample).map(([name, value]): Parameter => {
    const base = { name, required: false, desc: '' };
    if (typeof value === 'number') return { ...base, type: 'number' };
    if (typeof value === 'boolean') return { ...base, type: 'checkbox' };
    if (Array.isArray(value)) {
      const first: unknown = value[0];
      return isRecord(first) && depth === 0 ? { ...base, type: 'object_array', children: inferParameters(first, 1) } : { ...base, type: 'array' };
    }
    if (isRecord(value)) return depth === 0 ? { ...base, type: 'object', children: inferParameters(value, 1) } : { ...base, type: 'object' };
    return { ...base, type: 'text' };
  });
}
