import { TriggerType } from '../../../workflow/index.js';
import { inferParameters, parametersOf } from './parameters.js';
import { isRecord, pick, type TriggerKind, type TriggerProblem } from './trigger-kind.js';

/**
 * Webhook (public type 7): a POST to the workflow's hook starts it with the body's values. Its
 * parameters are declared (`params`), or inferred from a `sample` body (kept to show).
 */
export const webhookTrigger: TriggerKind = {
  type: TriggerType.webhook,
  name: 'webhook',
  prepare(raw) {
    const problems: TriggerProblem[] = [];
    const sample = pick(raw, 'sample', 'sampleBody');
    if (sample !== undefined && !isRecord(sample)) problems.push({ path: 'sample', message: 'must be a JSON object, as a request body would be' });
    const declared = pick(raw, 'params', 'inputs');
    const params = declared !== undefined ? parametersOf(declared, 'params', false, 0, problems) : isRecord(sample) ? inferParameters(sample) : [];
    return Promise.resolve({ config: { ...(isRecord(sample) ? { sample } : {}), params }, problems });
  },
  worksheetOf: () => null,
};
