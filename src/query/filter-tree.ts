import { AppError } from '../shared/app-error.js';

/**
 * The filter language of the interface, parsed into a tree whose every node knows where it came
 * from (`filter.children[1].children[0]`), so that each error can name the condition.
 *
 * Wire form: `{type:"group", logic:"AND"|"OR", children:[…]}` and
 * `{type:"condition", field, operator, value}`. A bare condition at the top is read as a group of
 * one; a group without children means every row; groups nest as deep as the public interface
 * allows (group → group → condition).
 */
export type FilterNode = FilterGroup | FilterCondition;

export interface FilterGroup {
  kind: 'group';
  logic: 'and' | 'or';
  children: FilterNode[];
  path: string;
}

export interface FilterCondition {
  kind: 'condition';
  field: string;
  operator: string;
  value: unknown;
  /** Whether the client sent a `value` at all (isempty needs none; eq needs one). */
  hasValue: boolean;
  path: string;
}

/** Groups inside the top group: the public depth is group → group → condition. */
export const MAX_GROUP_DEPTH = 2;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseCondition(node: Record<string, unknown>, path: string): FilterCondition {
  if (typeof node.field !== 'string' || node.field === '') throw AppError.invalidParameters(`${path}.field is required (a field id or alias)`);
  if (typeof node.operator !== 'string' || node.operator === '') throw AppError.invalidParameters(`${path}.operator is required`);
  return { kind: 'condition', field: node.field, operator: node.operator.toLowerCase(), value: node.value, hasValue: node.value !== undefined, path };
}

function parseNode(node: unknown, path: string, depth: number): FilterNode {
  if (!isObject(node)) throw AppError.invalidParameters(`${path}: expected a group {type, logic, children} or a condition {type, field, operator, value}`);
  const type = typeof node.type === 'string' ? node.type.toLowerCase() : node.children !== undefined ? 'group' : 'condition';
  if (type === 'condition') return parseCondition(node, path);
  if (type !== 'group') throw AppError.invalidValue(`${path}.type: must be "group" or "condition", got ${JSON.stringify(String(node.type)).slice(0, 40)}`);
  if (depth > MAX_GROUP_DEPTH) throw AppError.invalidValue(`${path}: groups nest at most ${MAX_GROUP_DEPTH} deep (group → group → condition)`);
  const logic = node.logic === undefined ? 'and' : typeof node.logic === 'string' ? node.logic.toLowerCase() : '';
  if (logic !== 'and' && logic !== 'or') throw AppError.invalidValue(`${path}.logic: must be "AND" or "OR"`);
  if (node.children !== undefined && !Array.isArray(node.children)) throw AppError.invalidParameters(`${path}.children: expected an array`);
  const children = ((node.children as unknown[] | undefined) ?? []).map((child, i) => parseNode(child, `${path}.children[${i}]`, depth + 1));
  return { kind: 'group', logic, children, path };
}

/**
 * The filter of a request as a tree, or null when it filters nothing (absent, `{}`, an empty group).
 * @example parseFilter({ type: 'condition', field: 'amount', operator: 'gt', value: 5 }, 'filter')
 */
export function parseFilter(filter: unknown, path = 'filter'): FilterGroup | null {
  if (filter === undefined || filter === null) return null;
  if (isObject(filter) && Object.keys(filter).length === 0) return null;
  const root = parseNode(filter, path, 1);
  const group: FilterGroup = root.kind === 'group' ? root : { kind: 'group', logic: 'and', children: [root], path };
  return group.children.length === 0 ? null : group;
}
