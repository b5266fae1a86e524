import type { NodeCheckContext, NodeProblem } from '../node-type.js';
import { nodesReferenced, type ValueRef } from '../value-refs.js';

/** Problems with references to nodes that do not run before this one. */
export function checkReferences(refs: Array<{ ref: ValueRef; path: string }>, at: NodeCheckContext): NodeProblem[] {
  return refs.flatMap(({ ref, path }) =>
    nodesReferenced(ref)
      .filter((node) => !at.earlier.has(node))
      .map((node) => ({ path, message: `refers to the node "${node}", which does not run before this one` })),
  );
}

/** Problems with a worksheet and the field ids written to it. */
export async function checkWorksheetFields(at: NodeCheckContext, worksheetKey: string, fieldIds: Array<{ id: string; path: string }>): Promise<NodeProblem[]> {
  const worksheet = await at.worksheet(worksheetKey);
  if (!worksheet) return [{ path: 'worksheetId', message: `no worksheet "${worksheetKey}" in this application` }];
  return fieldIds.filter((f) => !worksheet.fields.has(f.id)).map((f) => ({ path: f.path, message: `no field "${f.id}" in the worksheet "${worksheet.name}" (field ids, not aliases)` }));
}
