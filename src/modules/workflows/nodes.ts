import { inRetriedTransaction } from '../../db/transaction.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { NodeSpec } from '../../workflow/index.js';
import { workflowLookups } from './check-context.js';
import { draftNodes, within, workflowToEdit } from './drafts.js';
import { placeNodes, type NodeInput } from './node-placement.js';
import { removeNodes } from './node-removal.js';
import * as repository from './repository.js';
import { aliasClashes, graphOf, nodeProblems, problemLine, type WorkflowProblem } from './workflow-check.js';

export const MAX_NODES_PER_BATCH = 200;
export const MAX_NODES_PER_WORKFLOW = 1000;

const keyOf = (p: WorkflowProblem) => `${p.nodeAlias}\n${p.path}\n${p.message}`;

/** Problems the batch brings: those of the new nodes, and structure problems the draft did not have before. */
async function batchProblems(ctx: ServiceContext, triggerAlias: string, before: readonly NodeSpec[], after: readonly NodeSpec[], created: readonly NodeSpec[]): Promise<WorkflowProblem[]> {
  const lookups = workflowLookups(ctx);
  const graph = graphOf(triggerAlias, after);
  const known = new Set([...graphOf(triggerAlias, before).problems, ...aliasClashes(triggerAlias, before)].map(keyOf));
  const problems: WorkflowProblem[] = [];
  for (const node of created) problems.push(...(await nodeProblems(node, graph, lookups, ctx.actor.appId)));
  problems.push(...[...graph.problems, ...aliasClashes(triggerAlias, after)].filter((p) => !known.has(keyOf(p)) && !problems.some((q) => keyOf(q) === keyOf(p))));
  return problems;
}

/**
 * Adds nodes to the draft, all or none: each node's config is checked against its type's schema
 * and by its type's check (in the place it will have), the chain must stay whole; one problem
 * rejects the batch (10002) with one line per problem, `nodes[<alias>].config.<path>: <reason>`.
 */
export async function addNodes(ctx: ServiceContext, workflowId: string, inputs: NodeInput[]): Promise<{ createdNodes: Array<{ id: string; nodeAlias: string; nodeType: string }> }> {
  if (inputs.length === 0) throw AppError.invalidParameters('nodes must hold at least one node');
  if (inputs.length > MAX_NODES_PER_BATCH) throw AppError.invalidParameters(`nodes: at most ${MAX_NODES_PER_BATCH} per call, got ${inputs.length}`);
  return inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, workflowId);
    const existing = await draftNodes(trx, row.id);
    if (existing.length + inputs.length > MAX_NODES_PER_WORKFLOW) throw AppError.invalidValue(`nodes: a workflow holds at most ${MAX_NODES_PER_WORKFLOW} nodes; it has ${existing.length}`);
    const placement = placeNodes(row.trigger_alias, existing, inputs, newObjectId);
    const problems = [...placement.problems, ...(await batchProblems(within(ctx, trx), row.trigger_alias, existing, placement.nodes, placement.created))];
    if (problems.length > 0) throw AppError.invalidValue(problems.map((p) => problemLine(p)).join('\n'));
    const now = ctx.now();
    await repository.insertNodes(trx, row.id, placement.created, now);
    for (const [id, prev] of placement.relinked) await repository.setPrevious(trx, id, prev);
    await repository.updateWorkflow(trx, row.id, { updated_at: now });
    return { createdNodes: placement.created.map((n) => ({ id: n.id, nodeAlias: n.alias, nodeType: n.type })) };
  });
}

/**
 * Removes nodes (by id or alias) from the draft, all or none (10007 naming an unknown one); a
 * branch or approval block takes what is inside it along, and the chain is re-linked around them.
 */
export async function deleteNodes(ctx: ServiceContext, workflowId: string, keys: readonly string[]): Promise<{ deletedNodes: Array<{ id: string; nodeAlias: string }> }> {
  if (keys.length === 0) throw AppError.invalidParameters('nodeIds must hold at least one node id');
  return inRetriedTransaction(ctx.db, ctx.dialect, async (trx) => {
    const row = await workflowToEdit(ctx, trx, workflowId);
    const nodes = await draftNodes(trx, row.id);
    const aliases = keys.map((key) => {
      const node = nodes.find((n) => n.id === key) ?? nodes.find((n) => n.alias === key);
      if (!node) throw AppError.notFound(`node "${String(key).slice(0, 80)}" does not exist in this workflow`);
      return node.alias;
    });
    const { removed, relinked } = removeNodes(nodes, aliases);
    await repository.deleteNodes(trx, row.id, removed.map((n) => n.id));
    for (const { id, prev } of relinked) await repository.setPrevious(trx, id, prev);
    await repository.updateWorkflow(trx, row.id, { updated_at: ctx.now() });
    return { deletedNodes: removed.map((n) => ({ id: n.id, nodeAlias: n.alias })) };
  });
}
