import type { NodeType } from './node-type.js';
import { branchNode } from './node-types/branch.js';
import { getSingleNode } from './node-types/get-single.js';
import { updateRecordNode } from './node-types/update-record.js';
import { approvalBlockNode } from './node-types/approval-block.js';
import { approveNode } from './node-types/approve.js';
import { fillInNode } from './node-types/fill-in.js';
import { ccNode } from './node-types/cc.js';

/** Every node type, by its public `nodeType` name. Adding one: its file, its test, one line here. */
const NODE_TYPES: ReadonlyMap<string, NodeType> = new Map(
  ([branchNode, getSingleNode, updateRecordNode, approvalBlockNode, approveNode, fillInNode, ccNode] as unknown as NodeType[]).map((t) => [t.type, t]),
);

/** Public aliases of node type names (facts §7.4: `create_record` is `add_record`). */
const ALIASES: ReadonlyMap<string, string> = new Map([['create_record', 'add_record']]);

export function nodeTypeOf(name: string): NodeType | undefined {
  return NODE_TYPES.get(ALIASES.get(name) ?? name);
}

export function nodeTypeNames(): string[] {
  return [...NODE_TYPES.keys()];
}
