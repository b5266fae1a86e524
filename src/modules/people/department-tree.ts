import type { DepartmentRow } from './department-repository.js';

/**
 * A department as the tree shows it: its path from the top ("Sales/North"), its managers (account
 * ids) and its sub-departments in order.
 */
export interface DepartmentNode {
  id: string;
  name: string;
  parentId: string | null;
  path: string;
  position: number;
  managers: string[];
  children: DepartmentNode[];
}

/** Separates the names of a department path; names may not contain it. */
export const PATH_SEPARATOR = '/';

/**
 * The path of every department ("top/…/name"), from the flat rows of one organization.
 * @example pathsOf(rows).get(northId) === 'Sales/North'
 */
export function pathsOf(rows: readonly DepartmentRow[]): Map<string, string> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<string, string>();
  const pathOf = (row: DepartmentRow, depth: number): string => {
    const known = paths.get(row.id);
    if (known !== undefined) return known;
    const parent = row.parentId === null ? undefined : byId.get(row.parentId);
    // The depth guard only matters for a tree broken outside this program; writes refuse cycles.
    const path = parent && depth < rows.length ? `${pathOf(parent, depth + 1)}${PATH_SEPARATOR}${row.name}` : row.name;
    paths.set(row.id, path);
    return path;
  };
  for (const row of rows) pathOf(row, 0);
  return paths;
}

/** The nested tree, siblings in the rows' order (position, then creation). */
export function treeOf(rows: readonly DepartmentRow[], managers: ReadonlyMap<string, string[]>): DepartmentNode[] {
  const paths = pathsOf(rows);
  const nodes = new Map<string, DepartmentNode>(
    rows.map((r) => [r.id, { id: r.id, name: r.name, parentId: r.parentId, path: paths.get(r.id) ?? r.name, position: r.position, managers: managers.get(r.id) ?? [], children: [] }]),
  );
  const top: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : top).push(node);
  }
  return top;
}

/** Whether `candidate` is `departmentId` or lies below it: moving a department there would make a cycle. */
export function isWithin(rows: readonly DepartmentRow[], candidate: string, departmentId: string): boolean {
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
  for (let at: string | null | undefined = candidate, steps = 0; at && steps <= rows.length; at = parentOf.get(at), steps++) {
    if (at === departmentId) return true;
  }
  return false;
}

/**
 * The departments above each department, from the top down to its parent (empty for a top-level
 * one): the `path` and `pathNodes` of the lookups, which name where a department lies, not itself.
 * @example ancestorsOf(rows).get(northId) → [{ id: salesId, name: 'Sales' }]
 */
export function ancestorsOf(rows: readonly DepartmentRow[]): Map<string, Array<{ id: string; name: string }>> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ancestors = new Map<string, Array<{ id: string; name: string }>>();
  for (const row of rows) {
    const chain: Array<{ id: string; name: string }> = [];
    // The step limit only matters for a tree broken outside this program; writes refuse cycles.
    for (let at = row.parentId === null ? undefined : byId.get(row.parentId), steps = 0; at && steps < rows.length; at = at.parentId === null ? undefined : byId.get(at.parentId), steps++) {
      chain.unshift({ id: at.id, name: at.name });
    }
    ancestors.set(row.id, chain);
  }
  return ancestors;
}
