import type { Executor } from '../db/connection.js';
import type { WorkflowDefinition } from './definition.js';
import { WorkflowGraph } from './graph.js';
import { nodeTypeOf } from './registry.js';
import { readDefinition } from './run-store.js';

/** A published version as runs follow it. */
export interface LoadedVersion {
  definition: WorkflowDefinition;
  graph: WorkflowGraph;
  /** Whether its runs keep their record's process fields (`WorkflowDefinition.showsProcess`). */
  showsProcess: boolean;
}

/** Published versions never change: each is parsed once per process. */
const versions = new Map<string, LoadedVersion>();

/** A published version, parsed (from this process's cache after the first time). */
export async function loadVersion(db: Executor, workflowId: string, version: number): Promise<LoadedVersion> {
  const key = `${workflowId}@${version}`;
  const cached = versions.get(key);
  if (cached) return cached;
  const text = await readDefinition(db, workflowId, version);
  if (!text) throw new Error(`workflow ${workflowId} has no published version ${version}`);
  const definition = JSON.parse(text) as WorkflowDefinition;
  const graph = new WorkflowGraph(definition.trigger.alias, definition.nodes, (node) => nodeTypeOf(node.type)?.containers?.(node.config as never, node.alias) ?? []);
  const showsProcess = definition.showsProcess ?? definition.nodes.some((node) => nodeTypeOf(node.type)?.showsProcess === true);
  const loaded = { definition, graph, showsProcess };
  if (versions.size > 1000) versions.clear();
  versions.set(key, loaded);
  return loaded;
}
