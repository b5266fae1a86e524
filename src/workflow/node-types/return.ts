import { Type } from '@sinclair/typebox';
import { defineNodeType } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

/**
 * Return (public type 30): ends the run as passed with its outputs (each a value reference, by the
 * output parameter's name), kept on the run: what a hook call answers and what a waiting parent's
 * sub-process node receives. Nodes after it do not run.
 */
export const returnNode = defineNodeType({
  type: 'return',
  code: 30,
  config: Type.Object({ outputs: Type.Record(Type.String({ minLength: 1 }), ValueRef) }),
  exits: ['next'],
  effects: 'none',
  check(config, at) {
    return checkReferences(Object.entries(config.outputs).map(([name, ref]) => ({ ref, path: `outputs.${name}` })), at);
  },
  run(config, ctx) {
    const outputs = Object.fromEntries(Object.entries(config.outputs).map(([name, ref]) => [name, resolveValue(ref, ctx.values)]));
    return Promise.resolve({ exit: 'next', output: outputs, end: 'passed', runOutputs: outputs });
  },
});
