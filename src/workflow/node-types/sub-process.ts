import { Type } from '@sinclair/typebox';
import { TriggerType } from '../definition.js';
import { defineNodeType, type NodeProblem } from '../node-type.js';
import type { Parameter } from '../../modules/workflows/index.js';
import { GIVEN_LATER, inputProblems } from '../process-inputs.js';
import { resolveValue, ValueRef } from '../value-refs.js';
import { checkReferences } from './record-checks.js';

/**
 * The input mapping against the child's declared inputs, by the hook's rules: names it does not
 * declare, required inputs left out (or mapped to nothing), literals it would refuse. Other
 * references are known only when the node runs; they are read then (`startApiRun`).
 */
function inputMappingProblems(parameters: readonly Parameter[], inputs: Record<string, ValueRef>): NodeProblem[] {
  const body = Object.fromEntries(Object.entries(inputs).map(([name, ref]) => [name, ref.kind === 'literal' ? ref.value : ref.kind === 'empty' ? null : GIVEN_LATER]));
  return inputProblems(parameters, body).map((problem) => ({ path: `inputs.${problem.input}`, message: problem.reason }));
}

/**
 * Sub-process (public type 16): starts a run of another published, API-callable workflow (trigger
 * type 17) of the application with `inputs` (each a value reference, by input name), in the step's
 * transaction. With `wait`, the node waits until that run ends (it signals this one) and leaves by
 * `next` with `{runId, status, fields: outputs}` (the outputs its return node set, read as the
 * node's fields: `$<alias>-<output name>$`); a sub-process that
 * failed fails this run too. Without, the run goes on at once with `{runId}`. Runs started this way
 * count towards the chain limit (MAX_CHAIN_DEPTH). Its inputs are checked against the child's
 * declared inputs when it is saved and published (its published version, or its draft before the
 * first publication), and read by the hook's rules when it runs, against the version published
 * then, which is the one the child's run follows: a value the child cannot take fails this step.
 */
export const subProcessNode = defineNodeType({
  type: 'sub_process',
  code: 16,
  config: Type.Object({
    /** The workflow to start (its id; the public `processId`). */
    workflowId: Type.String({ minLength: 1 }),
    inputs: Type.Optional(Type.Record(Type.String({ minLength: 1 }), ValueRef)),
    wait: Type.Optional(Type.Boolean()),
  }),
  exits: ['next'],
  effects: 'database',
  async check(config, at) {
    const problems: NodeProblem[] = checkReferences(Object.entries(config.inputs ?? {}).map(([name, ref]) => ({ ref, path: `inputs.${name}` })), at);
    const workflow = at.workflow ? await at.workflow(config.workflowId) : undefined;
    if (workflow === null) problems.push({ path: 'workflowId', message: `no workflow "${config.workflowId}" in this application` });
    else if (workflow && workflow.triggerType !== TriggerType.api) problems.push({ path: 'workflowId', message: `"${workflow.name}" is not API-callable (trigger type ${workflow.triggerType}, not ${TriggerType.api})` });
    else if (workflow) {
      // As the public service refuses it (NodeAppIsNull): a run of this node could not start its child.
      if (at.wholeWorkflow && !workflow.published) problems.push({ path: 'workflowId', message: `NodeAppIsNull: "${workflow.name}" is not published; publish it before this workflow` });
      problems.push(...inputMappingProblems(workflow.inputs, config.inputs ?? {}));
    }
    return problems;
  },
  async run(config, ctx) {
    const inputs = Object.fromEntries(Object.entries(config.inputs ?? {}).map(([name, ref]) => [name, resolveValue(ref, ctx.values)]));
    const { runId } = await ctx.workflows.startRun(config.workflowId, inputs, config.wait === true);
    if (config.wait !== true) return { exit: 'next', output: { runId } };
    return { wait: { state: { runId } } };
  },
  resume(_config, wake) {
    if (wake.kind !== 'signal') return Promise.reject(new Error('a sub-process waits for its run to end, not for a timer'));
    const { runId, status, outputs } = wake.signal as { runId: string; status: string; outputs: Record<string, unknown> | null };
    if (status === 'failed') return Promise.reject(new Error(`the sub-process run ${runId} failed`));
    // The outputs as the node's fields: later nodes read one as `$<alias>-<output name>$`.
    return Promise.resolve({ exit: 'next', output: { runId, status, fields: outputs ?? {} } });
  },
});
