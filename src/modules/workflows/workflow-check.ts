import { nodeTypeNames, nodeTypeOf, WorkflowGraph, type NodeSpec } from '../../workflow/index.js';
import type { WorkflowLookups } from './check-context.js';
import { schemaProblems } from './config-schema.js';
import type { TriggerKind } from './triggers/index.js';

/** A problem of a workflow, as `validate` lists it and a rejected batch or publication names it. */
export interface WorkflowProblem {
  /** The node's alias (the trigger's alias for the trigger). */
  nodeAlias: string;
  /** Where: `config.fields[0].fieldId`, `prevNode`, `nodeType`, … */
  path: string;
  message: string;
  /** A problem of the trigger (or of the workflow as a whole), rather than of a node. */
  ofTrigger?: boolean;
}

/** Aliases that name the start of other kinds of flows on the public service (facts §7.4). */
export const RESERVED_ALIASES: ReadonlySet<string> = new Set(['trigger', 'sub_trigger', 'approval_trigger', 'approval_start']);
export const ALIAS_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** The trigger's own name besides its alias: value references may name it `trigger` (the reserved word). */
export const TRIGGER_NAME = 'trigger';

/** The containers a node owns (branch paths, an approval block); none while its config is invalid. */
export function containersOf(node: NodeSpec): string[] {
  const type = nodeTypeOf(node.type);
  if (!type?.containers || schemaProblems(type.config, node.config).length > 0) return [];
  return type.containers(node.config, node.alias);
}

export function graphOf(triggerAlias: string, nodes: readonly NodeSpec[]): WorkflowGraph {
  return new WorkflowGraph(triggerAlias, nodes, containersOf);
}

const inConfig = (path: string) => (path === '' ? 'config' : `config.${path}`);

/** The node types there are, for messages. */
export function knownNodeTypes(): string {
  return nodeTypeNames().join(', ');
}

/** The unknown-type message, naming the types there are. */
export function unknownTypeMessage(type: unknown): string {
  return `unknown node type ${JSON.stringify(type)}; known types are ${knownNodeTypes()}`;
}

/**
 * A node's problems: its type, its config against the type's schema (with paths inside it), the
 * type's own check (fields exist, referenced nodes run earlier), and whether it may sit where it is.
 */
export async function nodeProblems(node: NodeSpec, graph: WorkflowGraph, lookups: WorkflowLookups, appId: string, wholeWorkflow = false): Promise<WorkflowProblem[]> {
  const at = (path: string, message: string): WorkflowProblem => ({ nodeAlias: node.alias, path, message });
  const type = nodeTypeOf(node.type);
  if (!type) return [at('nodeType', unknownTypeMessage(node.type))];
  const invalid = schemaProblems(type.config, node.config);
  if (invalid.length > 0) return invalid.map((p) => at(inConfig(p.path), p.message));
  const problems: WorkflowProblem[] = [];
  if (type.onlyInside) {
    const owner = node.parent === null ? undefined : graph.ownerOf(node.parent);
    const ownerType = owner === undefined ? undefined : graph.node(owner)?.type;
    if (ownerType === undefined || !type.onlyInside.includes(ownerType)) problems.push(at('parentNode', `a ${type.type} node sits only inside ${type.onlyInside.join(' or ')}`));
  }
  if (type.check) {
    const earlier = new Map<string, string>([
      [graph.triggerAlias, TRIGGER_NAME],
      [TRIGGER_NAME, TRIGGER_NAME],
      ...graph.before(node.alias).map((alias) => [alias, graph.node(alias)?.type ?? ''] as const),
    ]);
    const found = await type.check(node.config, { appId, earlier, wholeWorkflow, worksheet: lookups.nodeWorksheet, workflow: lookups.nodeWorkflow });
    problems.push(...found.map((p) => at(inConfig(p.path), p.message)));
  }
  return problems;
}

/** Container aliases (branch paths) share the node aliases' names: a clash would make `prevNode`/`parentNode` ambiguous. */
export function aliasClashes(triggerAlias: string, nodes: readonly NodeSpec[]): WorkflowProblem[] {
  const nodeAliases = new Set([triggerAlias, ...nodes.map((n) => n.alias)]);
  const owners = new Map<string, string>();
  const problems: WorkflowProblem[] = [];
  for (const node of nodes) {
    for (const container of containersOf(node)) {
      const clash = RESERVED_ALIASES.has(container) ? 'a reserved alias' : nodeAliases.has(container) && container !== node.alias ? 'the alias of a node' : owners.has(container) && owners.get(container) !== node.alias ? `also a container of "${owners.get(container)}"` : null;
      if (clash) problems.push({ nodeAlias: node.alias, path: 'config', message: `the container alias "${container}" is ${clash}` });
      owners.set(container, node.alias);
    }
  }
  return problems;
}

/** The trigger's problems, named at the trigger's alias. */
export async function triggerProblems(kind: TriggerKind, alias: string, config: Record<string, unknown>, lookups: WorkflowLookups): Promise<WorkflowProblem[]> {
  const { problems } = await kind.prepare(config, lookups.trigger);
  return problems.map((p) => ({ nodeAlias: alias, path: inConfig(p.path), message: p.message, ofTrigger: true }));
}

/** Every problem of a workflow: its trigger, each node, the graph, the aliases; none when it may be published. */
export async function workflowProblems(kind: TriggerKind, triggerAlias: string, triggerConfig: Record<string, unknown>, nodes: readonly NodeSpec[], lookups: WorkflowLookups, appId: string): Promise<WorkflowProblem[]> {
  const problems = await triggerProblems(kind, triggerAlias, triggerConfig, lookups);
  if (nodes.length === 0) problems.push({ nodeAlias: triggerAlias, path: 'nodes', message: 'the workflow has no nodes after its trigger; add them with nodes/batch', ofTrigger: true });
  const graph = graphOf(triggerAlias, nodes);
  for (const node of nodes) problems.push(...(await nodeProblems(node, graph, lookups, appId, true)));
  problems.push(...graph.problems, ...aliasClashes(triggerAlias, nodes));
  return problems;
}

/** A problem as a line of an error message: `nodes[notify].config.fields[0].fieldId: is required`, `trigger.config.cron: …`. */
export function problemLine(problem: WorkflowProblem): string {
  const where = problem.ofTrigger ? 'trigger' : `nodes[${problem.nodeAlias}]`;
  return `${where}.${problem.path}: ${problem.message}`;
}
