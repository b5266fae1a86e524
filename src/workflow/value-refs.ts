import { Type, type Static } from '@sinclair/typebox';

/**
 * Values in node configs are referenced the public way (facts §7.4): a field of an earlier node's
 * record or output, a system value, a literal, a whole record, a text template with
 * `$alias-fieldId$` and `$system-nowTime$` placeholders, or nothing.
 * @example { kind: 'field', node: 'trigger', fieldId: 'amount' }
 */
export const ValueRef = Type.Union([
  Type.Object({ kind: Type.Literal('field'), node: Type.String({ minLength: 1 }), fieldId: Type.String({ minLength: 1 }) }),
  Type.Object({ kind: Type.Literal('systemField'), fieldId: Type.Union([Type.Literal('nowTime'), Type.Literal('triggertime'), Type.Literal('triggeraid')]) }),
  Type.Object({ kind: Type.Literal('literal'), value: Type.Unknown() }),
  Type.Object({ kind: Type.Literal('record'), node: Type.String({ minLength: 1 }) }),
  Type.Object({ kind: Type.Literal('template'), value: Type.String() }),
  Type.Object({ kind: Type.Literal('empty') }),
]);
export type ValueRef = Static<typeof ValueRef>;

/** What references are resolved against: each finished node's output by alias, and the run's system values. */
export interface ValueScope {
  outputs: Readonly<Record<string, Record<string, unknown>>>;
  /** When the run was triggered (epoch ms) and by whom (account id). */
  triggeredAt: number;
  triggeredBy: string;
  now(): number;
}

/** A node's value of a field: of its record (`fields`), else of its own output. */
function fieldOf(output: Record<string, unknown> | undefined, fieldId: string): unknown {
  if (!output) return null;
  const fields = output.fields as Record<string, unknown> | undefined;
  if (fields && fieldId in fields) return fields[fieldId];
  return output[fieldId] ?? null;
}

function systemValue(scope: ValueScope, name: string): unknown {
  if (name === 'nowTime') return new Date(scope.now()).toISOString();
  if (name === 'triggertime') return new Date(scope.triggeredAt).toISOString();
  if (name === 'triggeraid') return scope.triggeredBy;
  return null;
}

/** A value as text inside a template: option and member objects by their text, lists joined. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(asText).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return String(o.value ?? o.name ?? o.fullname ?? o.title ?? JSON.stringify(value));
  }
  return String(value);
}

/** A template placeholder: `$alias-fieldId$` (`$system-nowTime$` for system values). */
export const PLACEHOLDER = /\$([A-Za-z0-9_]+)-([A-Za-z0-9_]+)\$/g;

/** Resolves one reference against the run's values. */
export function resolveValue(ref: ValueRef, scope: ValueScope): unknown {
  switch (ref.kind) {
    case 'field':
      return fieldOf(scope.outputs[ref.node], ref.fieldId);
    case 'systemField':
      return systemValue(scope, ref.fieldId);
    case 'literal':
      return ref.value;
    case 'record':
      return scope.outputs[ref.node]?.rowId ?? null;
    case 'template':
      return ref.value.replace(PLACEHOLDER, (_, node: string, key: string) => asText(node === 'system' ? systemValue(scope, key) : fieldOf(scope.outputs[node], key)));
    case 'empty':
      return null;
  }
}

/** The node aliases a reference reads (a template's placeholders included), for checks at save time. */
export function nodesReferenced(ref: ValueRef): string[] {
  if (ref.kind === 'field' || ref.kind === 'record') return [ref.node];
  if (ref.kind === 'template') return [...ref.value.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((n) => n !== 'system');
  return [];
}
