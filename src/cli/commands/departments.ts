import type { Command } from 'commander';
import { createDepartment, departmentTree, organizationContext, type DepartmentNode } from '../../modules/people/index.js';
import { printResult, withDatabase } from './with-database.js';

const ORG_OPTION = ['--org <organizationId>', 'the organization (default: the first one)'] as const;

/** The tree as `path  id` lines, depth first. */
function pathLines(nodes: DepartmentNode[]): string[] {
  return nodes.flatMap((node) => [`${node.path}\t${node.id}`, ...pathLines(node.children)]);
}

/** `tabularium departments create|list`: the department tree of an organization. */
export function registerDepartments(program: Command): void {
  const departments = program.command('departments').description('manage the departments of an organization');
  departments
    .command('create')
    .description('create a department')
    .requiredOption('--name <name>', 'its name (unique under its parent; no "/")')
    .option('--parent <departmentId>', 'the department it belongs to (default: at the top)')
    .option('--manager <email...>', 'its managers, members of the organization')
    .option(...ORG_OPTION)
    .option('--json', 'print JSON')
    .action(async (options: { name: string; parent?: string; manager?: string[]; org?: string; json?: boolean }) => {
      const created = await withDatabase(async (db) => createDepartment(await organizationContext(db, options.org, Date.now()), { name: options.name, parentId: options.parent ?? null, managers: options.manager }));
      printResult({ id: created.id, path: created.path, parentId: created.parentId ?? '', managers: created.managers }, options.json === true);
    });
  departments
    .command('list')
    .description('the department tree, with paths')
    .option(...ORG_OPTION)
    .option('--json', 'print JSON (the nested tree)')
    .action(async (options: { org?: string; json?: boolean }) => {
      const tree = await withDatabase(async (db) => departmentTree(await organizationContext(db, options.org, Date.now())));
      if (options.json === true) process.stdout.write(`${JSON.stringify(tree, null, 2)}\n`);
      else for (const line of pathLines(tree)) process.stdout.write(`${line}\n`);
    });
}
