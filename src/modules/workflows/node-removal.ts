import type { NodeSpec } from '../../workflow/index.js';
import { containersOf } from './workflow-check.js';

/**
 * Removes nodes from a draft: a node owning containers (a branch, an approval block) takes
 * everything inside them along; each remaining node that followed a removed one follows what came
 * before it, so the chain stays whole.
 * @example removeNodes([a, b, c], ['b']) // → { removed: [b], relinked: [{ id: c.id, prev: 'a' }] }
 */
export function removeNodes(nodes: readonly NodeSpec[], aliases: readonly string[]): { removed: NodeSpec[]; relinked: Array<{ id: string; prev: string | null }> } {
  const byAlias = new Map(nodes.map((n) => [n.alias, n]));
  const removing = new Set<string>();
  const queue = [...aliases];
  while (queue.length > 0) {
    const alias = queue.pop()!;
    const node = byAlias.get(alias);
    if (!node || removing.has(alias)) continue;
    removing.add(alias);
    const inside = new Set(containersOf(node));
    for (const other of nodes) if (other.parent !== null && inside.has(other.parent)) queue.push(other.alias);
  }
  const relinked: Array<{ id: string; prev: string | null }> = [];
  for (const node of nodes) {
    if (removing.has(node.alias) || node.prev === null || !removing.has(node.prev)) continue;
    let prev: string | null = node.prev;
    const walked = new Set<string>();
    while (prev !== null && removing.has(prev) && !walked.has(prev)) {
      walked.add(prev);
      prev = byAlias.get(prev)?.prev ?? null;
    }
    relinked.push({ id: node.id, prev });
  }
  return { removed: nodes.filter((n) => removing.has(n.alias)), relinked };
}
