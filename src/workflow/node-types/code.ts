import { Type } from '@sinclair/typebox';
import { runSandboxed, SandboxError } from '../code-sandbox.js';
import { defineNodeType } from '../node-type.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

/**
 * Code (public type 14): JavaScript run in a QuickJS sandbox (`code-sandbox.ts`: no Node, network,
 * files or server memory), as the body of a function of `input` (the `inputs`, each a value
 * reference, by name) whose returned object's keys are the node's output. Stopped after `timeoutMs`
 * (default 1000, at most 10,000) or beyond `memoryMb` (default 16, at most 64): the run fails, saying
 * which. Its step commits right after it (effects `external`), so a crash does not run it twice
 * within the same step's commit.
 */
export const codeNode = defineNodeType({
  type: 'code',
  code: 14,
  config: Type.Object({
    code: Type.String({ minLength: 1, maxLength: 100_000 }),
    inputs: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$' }), ValueRef)),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 10, maximum: 10_000 })),
    memoryMb: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  }),
  exits: ['next'],
  effects: 'external',
  check(config, at) {
    return checkReferences(Object.entries(config.inputs ?? {}).map(([name, ref]) => ({ ref, path: `inputs.${name}` })), at);
  },
  async run(config, ctx) {
    const input = Object.fromEntries(Object.entries(config.inputs ?? {}).map(([name, ref]) => [name, resolveValue(ref, ctx.values)]));
    let result: unknown;
    try {
      result = await runSandboxed(config.code, input, { timeoutMs: config.timeoutMs ?? 1000, memoryBytes: (config.memoryMb ?? 16) * 1024 * 1024 });
    } catch (error) {
      if (error instanceof SandboxError) throw new Error(error.message, { cause: error });
      throw error;
    }
    if (result === null || typeof result !== 'object' || Array.isArray(result)) throw new Error(`the code must return an object (its keys are the node's output), it returned ${Array.isArray(result) ? 'an array' : result === null ? 'nothing' : typeof result}`);
    return { exit: 'next', output: result as Record<string, unknown> };
  },
});
