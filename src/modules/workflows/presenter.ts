import { nodeTypeOf, type NodeSpec, type TriggerSpec, type WorkflowDefinition } from '../../workflow/index.js';
import type { NodeRow, WorkflowRow } from './repository.js';
import { containersOf } from './workflow-check.js';

const iso = (millis: number) => new Date(Number(millis)).toISOString();

export function nodeSpecOf(row: NodeRow): NodeSpec {
  return { id: row.id, alias: row.alias, type: row.node_type, name: row.name, description: row.description, prev: row.prev_alias, parent: row.parent_alias, config: JSON.parse(row.config) as unknown };
}

export function draftTriggerOf(row: WorkflowRow): TriggerSpec {
  const config = JSON.parse(row.trigger_config) as Record<string, unknown>;
  return { type: Number(row.trigger_type), alias: row.trigger_alias, config, worksheetId: typeof config.worksheetId === 'string' ? config.worksheetId : null };
}

/**
 * Nodes in the order they run: the top sequence from the trigger, each container's nodes right after
 * the node owning it; nodes that are in no sequence (a broken link) come last.
 */
export function inRunOrder(nodes: readonly NodeSpec[]): NodeSpec[] {
  const ordered: NodeSpec[] = [];
  const placed = new Set<string>();
  const sequence = (parent: string | null): void => {
    const members = nodes.filter((n) => n.parent === parent);
    for (let node = members.find((n) => n.prev === null || !members.some((m) => m.alias === n.prev)); node && !placed.has(node.alias); node = members.find((n) => n.prev === node!.alias)) {
      placed.add(node.alias);
      ordered.push(node);
      for (const container of containersOf(node)) sequence(container);
    }
  };
  sequence(null);
  return [...ordered, ...nodes.filter((n) => !placed.has(n.alias))];
}

function presentNode(node: NodeSpec, triggerAlias: string) {
  return {
    id: node.id,
    nodeAlias: node.alias,
    nodeType: node.type,
    typeId: nodeTypeOf(node.type)?.code ?? null,
    name: node.name,
    description: node.description,
    // The first node at the top follows the trigger; the first inside a container follows nothing.
    prevNode: node.prev ?? (node.parent === null ? triggerAlias : null),
    parentNode: node.parent,
    config: node.config,
  };
}

/** What decides whether the draft differs from the published version: the trigger and the nodes (not the name). */
function fingerprint(trigger: TriggerSpec, nodes: readonly NodeSpec[]): string {
  const sorted = [...nodes].sort((a, b) => (a.alias < b.alias ? -1 : 1)).map((n) => [n.alias, n.type, n.name, n.description, n.prev, n.parent, n.config]);
  return JSON.stringify([trigger.type, trigger.config, sorted]);
}

export function hasUnpublishedChanges(trigger: TriggerSpec, nodes: readonly NodeSpec[], published: WorkflowDefinition | null): boolean {
  return published === null || fingerprint(trigger, nodes) !== fingerprint(published.trigger, published.nodes);
}

/** A workflow's structure (`GET /v3/app/workflows/{id}`): the draft's, or a published version's. */
export function presentWorkflow(row: WorkflowRow, shown: { name: string; description: string; trigger: TriggerSpec; nodes: readonly NodeSpec[]; version: number; unpublishedChanges: boolean }) {
  return {
    id: row.id,
    processId: row.id,
    name: shown.name,
    description: shown.description,
    trigger: { type: shown.trigger.type, alias: shown.trigger.alias, config: shown.trigger.config },
    triggerType: shown.trigger.type,
    triggerAlias: shown.trigger.alias,
    published: row.status === 'published',
    status: row.status,
    version: shown.version,
    draftVersion: Number(row.draft_version),
    hasUnpublishedChanges: shown.unpublishedChanges,
    ownerId: row.owner_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    nodes: inRunOrder(shown.nodes).map((n) => presentNode(n, shown.trigger.alias)),
  };
}

/** A workflow as the list shows it. */
export function presentListed(row: WorkflowRow) {
  const trigger = draftTriggerOf(row);
  return {
    id: row.id,
    processId: row.id,
    name: row.name,
    description: row.description,
    triggerType: trigger.type,
    triggerAlias: trigger.alias,
    worksheetId: trigger.worksheetId,
    published: row.status === 'published',
    status: row.status,
    version: Number(row.published_version),
    draftVersion: Number(row.draft_version),
    ownerId: row.owner_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
