import { Value } from '@sinclair/typebox/value';
import { resolveValue, ValueRef, type ValueScope } from './value-refs.js';

/**
 * A node's record filter is the list filter language (docs/api.md "The filter language"), where a
 * condition's `value`, or an item of an array `value`, may be a value reference instead of a
 * literal: it is resolved against the run's values before the query, and a choice, member,
 * department or record it holds becomes its key or id, as filters take them.
 * @example { type: 'group', logic: 'AND', children: [{ type: 'condition', field: 'owner', operator: 'eq', value: { kind: 'field', node: 'start', fieldId: 'owner' } }] }
 */

const isRef = (value: unknown): value is ValueRef => typeof value === 'object' && value !== null && 'kind' in value && Value.Check(ValueRef, value);

/** A resolved value as a filter takes it: objects by their key or id, lists item by item. */
function filterValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(filterValue);
  if (typeof value !== 'object' || value === null) return value;
  const o = value as Record<string, unknown>;
  return o.key ?? o.accountId ?? o.departmentId ?? o.sid ?? o.rowid ?? o.id ?? o.value ?? null;
}

function resolveItem(value: unknown, scope: ValueScope): unknown {
  return isRef(value) ? filterValue(resolveValue(value, scope)) : value;
}

/** The filter with its references resolved (a new tree; the config is not changed). */
export function resolveFilter(filter: unknown, scope: ValueScope): unknown {
  if (Array.isArray(filter)) return filter.map((item) => resolveFilter(item, scope));
  if (typeof filter !== 'object' || filter === null) return filter;
  const node = filter as Record<string, unknown>;
  if (node.type === 'condition' && 'value' in node) {
    const value = Array.isArray(node.value) ? node.value.flatMap((item) => [resolveItem(item, scope)].flat()) : resolveItem(node.value, scope);
    return { ...node, value };
  }
  return Array.isArray(node.children) ? { ...node, children: node.children.map((child) => resolveFilter(child, scope)) } : node;
}

/** The conditions of a filter tree (with their paths inside the node's config), for checks at save time. */
export function filterConditions(filter: unknown, path: string): Array<{ field: unknown; value: unknown; path: string }> {
  if (typeof filter !== 'object' || filter === null) return [];
  const node = filter as Record<string, unknown>;
  if (node.type === 'condition') return [{ field: node.field, value: node.value, path }];
  return Array.isArray(node.children) ? node.children.flatMap((child, i) => filterConditions(child, `${path}.children[${i}]`)) : [];
}

/** The value references of a condition's value. */
export function referencesIn(value: unknown): ValueRef[] {
  return (Array.isArray(value) ? value : [value]).filter(isRef);
}
