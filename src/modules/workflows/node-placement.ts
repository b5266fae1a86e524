import { nodeTypeOf, type NodeSpec } from '../../workflow/index.js';
import { isRecord } from './triggers/index.js';
import { ALIAS_PATTERN, containersOf, knownNodeTypes, RESERVED_ALIASES, TRIGGER_NAME, unknownTypeMessage, type WorkflowProblem } from './workflow-check.js';

/** One node of a batch as sent (facts §7.4). */
export interface NodeInput {
  nodeAlias?: unknown;
  nodeType?: unknown;
  prevNode?: unknown;
  parentNode?: unknown;
  name?: unknown;
  description?: unknown;
  config?: unknown;
}

/** The draft after a batch: every node, the new ones, and the existing nodes that follow a new one now. */
export interface Placement {
  nodes: NodeSpec[];
  created: NodeSpec[];
  /** Existing node id → its new `prev`. */
  relinked: Map<string, string | null>;
  problems: WorkflowProblem[];
}

/** A reference as sent: an alias or id, `{nodeAlias}` or `{nodeId}`; null when none is given. */
function referenceKey(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') return value;
  if (isRecord(value)) {
    const key = value.nodeAlias ?? value.alias ?? value.nodeId ?? value.id;
    if (typeof key === 'string' && key !== '') return key;
  }
  return undefined;
}

class Draft {
  readonly byAlias = new Map<string, NodeSpec>();
  /** Container alias → the node owning it. */
  readonly owners = new Map<string, string>();

  constructor(
    readonly triggerAlias: string,
    readonly existingIds: ReadonlySet<string>,
    nodes: readonly NodeSpec[],
  ) {
    for (const node of nodes) this.add(node);
  }

  add(node: NodeSpec): void {
    this.byAlias.set(node.alias, node);
    for (const container of containersOf(node)) this.owners.set(container, node.alias);
  }

  /** A node by alias, or an existing node by id. */
  nodeNamed(key: string): NodeSpec | undefined {
    return this.byAlias.get(key) ?? [...this.byAlias.values()].find((n) => n.id === key && this.existingIds.has(n.id));
  }

  /** The container `parentNode` names: a container alias, or a node owning exactly one (an approval block). */
  container(value: unknown): { container: string | null; problem?: string } {
    const key = referenceKey(value);
    if (key === null) return { container: null };
    if (key === undefined) return { container: null, problem: 'must be a container alias, {nodeAlias} or {nodeId}' };
    if (this.owners.has(key)) return { container: key };
    const node = this.nodeNamed(key);
    const owned = node ? containersOf(node) : [];
    if (owned.length === 1) return { container: owned[0] };
    if (node && owned.length > 1) return { container: null, problem: `"${node.alias}" has several paths (${owned.join(', ')}); name one of them` };
    return { container: null, problem: node ? `"${node.alias}" holds no nodes; name a branch path or an approval block` : `no branch path or approval block "${key.slice(0, 80)}"` };
  }

  /**
   * Where a node goes: after `prevNode` (null: first of its sequence), inside `parentNode` (null: at
   * the top). Without `parentNode` it joins the sequence of the node it follows.
   */
  place(input: NodeInput): { prev: string | null; parent: string | null; problem?: { path: string; message: string } } {
    const parentGiven = input.parentNode !== undefined && input.parentNode !== null && input.parentNode !== '';
    const parent = this.container(input.parentNode);
    if (parent.problem) return { prev: null, parent: null, problem: { path: 'parentNode', message: parent.problem } };
    const key = referenceKey(input.prevNode);
    if (key === undefined) return { prev: null, parent: null, problem: { path: 'prevNode', message: 'must be a node alias or id, {nodeAlias} or {nodeId}' } };
    if (key === null || key === this.triggerAlias || key === TRIGGER_NAME) return { prev: null, parent: parent.container };
    if (this.owners.has(key) && (!parentGiven || parent.container === key)) return { prev: null, parent: key };
    const previous = this.nodeNamed(key);
    if (!previous) return { prev: null, parent: null, problem: { path: 'prevNode', message: `no node "${key.slice(0, 80)}" in this workflow` } };
    if (!parentGiven) return { prev: previous.alias, parent: previous.parent };
    // A container's first node may name the node owning it (the branch) as the one before it.
    if (parent.container !== null && this.owners.get(parent.container) === previous.alias) return { prev: null, parent: parent.container };
    if (previous.parent !== parent.container) {
      return { prev: null, parent: null, problem: { path: 'prevNode', message: `"${previous.alias}" is ${previous.parent ? `inside "${previous.parent}"` : 'at the top level'}, not ${parent.container ? `inside "${parent.container}"` : 'at the top level'}` } };
    }
    return { prev: previous.alias, parent: parent.container };
  }

  /** The node now at this place, which the new node goes before. */
  successor(prev: string | null, parent: string | null): NodeSpec | undefined {
    return [...this.byAlias.values()].find((n) => n.prev === prev && n.parent === parent);
  }
}

function aliasProblem(alias: unknown, draft: Draft): string | null {
  if (alias === undefined || alias === null || alias === '') return 'is required: a snake_case name unique in the workflow';
  if (typeof alias !== 'string' || !ALIAS_PATTERN.test(alias)) return `${JSON.stringify(alias)} is not snake_case: lowercase letters, digits and _, starting with a letter, at most 64`;
  if (RESERVED_ALIASES.has(alias)) return `"${alias}" is reserved (${[...RESERVED_ALIASES].join(', ')})`;
  if (alias === draft.triggerAlias) return `"${alias}" is the trigger's alias`;
  if (draft.byAlias.has(alias)) return `"${alias}" is already a node of this workflow`;
  if (draft.owners.has(alias)) return `"${alias}" is already a container (a branch path) of "${draft.owners.get(alias)}"`;
  return null;
}

function textOf(value: unknown, fallback: string): string | null {
  if (value === undefined || value === null) return fallback;
  return typeof value === 'string' ? value.trim() : null;
}

/**
 * Places a batch of nodes into a draft, in order: each goes after its `prevNode`, and the node that
 * followed it there now follows the new node (inserting re-links the chain). Problems of the input
 * itself (aliases, types, references) are collected, not thrown: the caller rejects the whole batch.
 */
export function placeNodes(triggerAlias: string, existing: readonly NodeSpec[], inputs: readonly NodeInput[], newId: () => string): Placement {
  const copies = existing.map((n) => ({ ...n }));
  const draft = new Draft(triggerAlias, new Set(existing.map((n) => n.id)), copies);
  const created: NodeSpec[] = [];
  const problems: WorkflowProblem[] = [];
  inputs.forEach((input, index) => {
    const label = typeof input.nodeAlias === 'string' && input.nodeAlias !== '' ? input.nodeAlias : `#${index}`;
    const report = (path: string, message: string) => problems.push({ nodeAlias: label, path, message });
    const badAlias = aliasProblem(input.nodeAlias, draft);
    if (badAlias) report('nodeAlias', badAlias);
    const type = typeof input.nodeType === 'string' ? nodeTypeOf(input.nodeType) : undefined;
    if (!type) report('nodeType', input.nodeType === undefined ? `is required; known types are ${knownNodeTypes()}` : unknownTypeMessage(input.nodeType));
    const name = textOf(input.name, label);
    const description = textOf(input.description, '');
    if (name === null) report('name', 'must be a string');
    if (description === null) report('description', 'must be a string');
    const place = draft.place(input);
    if (place.problem) report(place.problem.path, place.problem.message);
    if (badAlias || !type || place.problem) return;
    const node: NodeSpec = { id: newId(), alias: label, type: type.type, name: name || label, description: description ?? '', prev: place.prev, parent: place.parent, config: input.config ?? {} };
    const next = draft.successor(place.prev, place.parent);
    if (next) next.prev = node.alias;
    draft.add(node);
    created.push(node);
  });
  const original = new Map(existing.map((n) => [n.id, n.prev]));
  const relinked = new Map(copies.filter((n) => original.get(n.id) !== n.prev).map((n) => [n.id, n.prev] as const));
  return { nodes: [...draft.byAlias.values()], created, relinked, problems };
}
