import type { Parameter } from '../workflows/index.js';
import { TriggerType, type WorkflowDefinition } from '../../workflow/index.js';

/**
 * The process type of the public process list (facts §7.1: 6 webhook, 10 packaged business
 * process), by our trigger type (the start app types of facts §7.3: 7 webhook, 17 API process).
 */
export const PROCESS_TYPES: ReadonlyMap<number, number> = new Map([
  [TriggerType.webhook, 6],
  [TriggerType.api, 10],
]);

/** A parameter's type as a field code (facts §2.1; 10000006 object, 10000007 simple array, 10000008 object array). */
const TYPE_CODES: Readonly<Record<string, number>> = {
  text: 2,
  number: 6,
  radio: 9,
  attachment: 14,
  date: 16,
  member: 26,
  department: 27,
  checkbox: 36,
  org_role: 48,
  object: 10000006,
  array: 10000007,
  object_array: 10000008,
};

export function outputsOf(definition: WorkflowDefinition): Parameter[] {
  const list = definition.trigger.type === TriggerType.api ? definition.trigger.config.outputs : undefined;
  return Array.isArray(list) ? (list as Parameter[]) : [];
}

/** A parameter as the process detail shows it. */
export interface PresentedParameter {
  id: string;
  name: string;
  alias?: string;
  type: number;
  description: string;
  required?: boolean;
  options?: Array<{ key: string; value: string }>;
  items: PresentedParameter[];
}

/** An input parameter as the process detail shows it; its id is its name (unique among its siblings). */
export function presentInput(parameter: Parameter): PresentedParameter {
  return {
    id: parameter.name,
    name: parameter.name,
    alias: parameter.alias ?? '',
    type: TYPE_CODES[parameter.type] ?? 2,
    description: parameter.desc ?? '',
    required: parameter.required === true,
    options: parameter.options ?? [],
    items: (parameter.children ?? []).map(presentInput),
  };
}

export function presentOutput(parameter: Parameter): PresentedParameter {
  return { id: parameter.name, name: parameter.name, type: TYPE_CODES[parameter.type] ?? 2, description: parameter.desc ?? '', items: (parameter.children ?? []).map(presentOutput) };
}
