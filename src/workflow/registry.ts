import type { NodeType } from './node-type.js';
import { branchNode } from './node-types/branch.js';
import { getSingleNode } from './node-types/get-single.js';
import { updateRecordNode } from './node-types/update-record.js';
import { approvalBlockNode } from './node-types/approval-block.js';
import { approveNode } from './node-types/approve.js';
import { fillInNode } from './node-types/fill-in.js';
import { ccNode } from './node-types/cc.js';

import { getMultipleNode } from './node-types/get-multiple.js';
import { addRecordNode } from './node-types/add-record.js';
import { deleteRecordNode } from './node-types/delete-record.js';
import { delayNode } from './node-types/delay.js';
import { computeNode } from './node-types/compute.js';
import { rollupNode } from './node-types/rollup.js';
import { sendEmailNode } from './node-types/send-email.js';
import { httpRequestNode } from './node-types/http-request.js';
import { codeNode } from './node-types/code.js';
import { sendInternalNoticeNode } from './node-types/send-internal-notice.js';
import { subProcessNode } from './node-types/sub-process.js';
import { returnNode } from './node-types/return.js';

/** Every node type, by its public `nodeType` name. Adding one: its file, its test, one line here. */
const NODE_TYPES: ReadonlyMap<string, NodeType> = new Map(
  ([
    branchNode,
    getSingleNode,
    updateRecordNode,
    approvalBlockNode,
    approveNode,
    fillInNode,
    ccNode,
    getMultipleNode,
    addRecordNode,
    deleteRecordNode,
    delayNode,
    computeNode,
    rollupNode,
    sendEmailNode,
    httpRequestNode,
    codeNode,
    sendInternalNoticeNode,
    subProcessNode,
    returnNode,
  ] as unknown as NodeType[]).map((t) => [t.type, t]),
);

/** Public aliases of node type names (facts §7.4: `create_record` is `add_record`). */
const ALIASES: ReadonlyMap<string, string> = new Map([['create_record', 'add_record']]);

export function nodeTypeOf(name: string): NodeType | undefined {
  return NODE_TYPES.get(ALIASES.get(name) ?? name);
}

export function nodeTypeNames(): string[] {
  return [...NODE_TYPES.keys()];
}
