/**
 * A workflow's nodes as the runner walks them. Nodes sit in sequences: the top sequence after the
 * trigger, and one inside each container (a branch's path, an approval block), linked by `prev`.
 * Finishing the last node of a container's sequence goes on after the node that owns the container.
 */

/** One node as saved: its place (`prev`, `parent`) and its config. */
export interface NodeSpec {
  id: string;
  alias: string;
  type: string;
  name: string;
  description: string;
  /** The node before it in its sequence; null (or the trigger's or its container's alias) for the first. */
  prev: string | null;
  /** The container it sits in (a branch path's alias, an approval block's alias); null at the top. */
  parent: string | null;
  config: unknown;
}

/** A structural problem, reported like a config problem. */
export interface GraphProblem {
  nodeAlias: string;
  path: string;
  message: string;
}

export class WorkflowGraph {
  private readonly byAlias: Map<string, NodeSpec>;
  /** Container alias → the node that owns it. */
  private readonly owners: Map<string, string>;
  /** Container (or '' for the top) → its nodes in order. */
  private readonly sequences = new Map<string, string[]>();
  readonly problems: GraphProblem[] = [];

  /**
   * @param containersOf the containers a node owns (from its node type)
   */
  constructor(
    readonly triggerAlias: string,
    readonly nodes: readonly NodeSpec[],
    containersOf: (node: NodeSpec) => string[],
  ) {
    this.byAlias = new Map(nodes.map((n) => [n.alias, n]));
    this.owners = new Map(nodes.flatMap((n) => containersOf(n).map((c) => [c, n.alias] as const)));
    const groups = new Map<string, NodeSpec[]>();
    for (const node of nodes) {
      const key = node.parent ?? '';
      if (node.parent !== null && !this.owners.has(node.parent)) {
        this.problems.push({ nodeAlias: node.alias, path: 'parentNode', message: `no branch path or approval block "${node.parent}"` });
        continue;
      }
      groups.set(key, [...(groups.get(key) ?? []), node]);
    }
    for (const [key, members] of groups) this.sequences.set(key, this.chain(key, members));
  }

  /** Orders a container's nodes by their `prev` links; reports nodes left out of the chain. */
  private chain(container: string, members: NodeSpec[]): string[] {
    const isStart = (n: NodeSpec) => n.prev === null || n.prev === this.triggerAlias || n.prev === container || (container !== '' && n.prev === this.owners.get(container));
    const next = new Map<string, NodeSpec>();
    const starts: NodeSpec[] = [];
    for (const node of members) {
      if (isStart(node)) starts.push(node);
      else if (next.has(node.prev!)) this.problems.push({ nodeAlias: node.alias, path: 'prevNode', message: `"${next.get(node.prev!)!.alias}" already follows "${node.prev}"` });
      else next.set(node.prev!, node);
    }
    if (starts.length > 1) this.problems.push({ nodeAlias: starts[1].alias, path: 'prevNode', message: `"${starts[0].alias}" is already the first node ${container ? `of "${container}"` : 'after the trigger'}` });
    const order: string[] = [];
    for (let node = starts[0]; node && !order.includes(node.alias); node = next.get(node.alias)!) order.push(node.alias);
    for (const node of members) {
      if (!order.includes(node.alias) && !this.problems.some((p) => p.nodeAlias === node.alias)) {
        this.problems.push({ nodeAlias: node.alias, path: 'prevNode', message: `no node "${node.prev}" before it ${container ? `in "${container}"` : 'at the top level'}` });
      }
    }
    return order;
  }

  node(alias: string): NodeSpec | undefined {
    return this.byAlias.get(alias);
  }

  /** The first node of a container ('' or null: the top), or null when it is empty. */
  first(container: string | null): string | null {
    return this.sequences.get(container ?? '')?.[0] ?? null;
  }

  /** The node that runs after `alias` has finished, climbing out of containers; null at the end of the workflow. */
  after(alias: string): string | null {
    const node = this.byAlias.get(alias);
    if (!node) return null;
    const sequence = this.sequences.get(node.parent ?? '') ?? [];
    const next = sequence[sequence.indexOf(alias) + 1];
    if (next) return next;
    if (node.parent === null) return null;
    return this.after(this.owners.get(node.parent)!);
  }

  /** The nodes that run before `alias` on every path to it (its earlier siblings and its containers' owners and their earlier siblings). */
  before(alias: string): string[] {
    const node = this.byAlias.get(alias);
    if (!node) return [];
    const sequence = this.sequences.get(node.parent ?? '') ?? [];
    const siblings = sequence.slice(0, Math.max(0, sequence.indexOf(alias)));
    if (node.parent === null) return siblings;
    const owner = this.owners.get(node.parent)!;
    return [...this.before(owner), owner, ...siblings];
  }

  /** The node owning a container. */
  ownerOf(container: string): string | undefined {
    return this.owners.get(container);
  }
}
