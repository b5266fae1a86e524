import { Type } from '@sinclair/typebox';
import { ConditionGroup, groupHolds, referencesOf } from '../conditions.js';
import { defineNodeType, type NodeProblem } from '../node-type.js';
import { nodesReferenced } from '../value-refs.js';

const BranchPath = Type.Object({
  /** The path's alias: nodes on the path name it as their `parentNode`. */
  alias: Type.String({ minLength: 1, pattern: '^[a-z][a-z0-9_]*$' }),
  name: Type.Optional(Type.String()),
  /** Taken when it holds; a path without one is the else path (at most one, checked last). */
  condition: Type.Optional(ConditionGroup),
});

/**
 * Branch (public type 1): two or more paths; the run takes the first path, in order, whose condition
 * holds, else the path without a condition, else none and goes on after the branch. (One path is
 * taken: paths do not run side by side.)
 */
export const branchNode = defineNodeType({
  type: 'branch',
  code: 1,
  config: Type.Object({ paths: Type.Array(BranchPath, { minItems: 2 }) }),
  exits: ['next'],
  effects: 'none',
  containers: (config) => config.paths.map((p) => p.alias),
  check(config, at) {
    const problems: NodeProblem[] = [];
    const elses = config.paths.filter((p) => !p.condition);
    if (elses.length > 1) problems.push({ path: 'paths', message: 'at most one path may have no condition (the else path)' });
    const seen = new Set<string>();
    config.paths.forEach((path, i) => {
      if (seen.has(path.alias)) problems.push({ path: `paths[${i}].alias`, message: `the alias "${path.alias}" is used twice` });
      seen.add(path.alias);
      for (const node of path.condition ? referencesOf(path.condition).flatMap(nodesReferenced) : []) {
        if (!at.earlier.has(node)) problems.push({ path: `paths[${i}].condition`, message: `refers to the node "${node}", which does not run before this branch` });
      }
    });
    return problems;
  },
  run: () => Promise.resolve({ exit: 'next' }),
  enter(config, ctx) {
    const taken = config.paths.find((p) => p.condition && groupHolds(p.condition, ctx.values)) ?? config.paths.find((p) => !p.condition);
    return Promise.resolve(taken?.alias ?? null);
  },
});
