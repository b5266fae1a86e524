import { TriggerType } from '../../../workflow/index.js';
import { parametersOf } from './parameters.js';
import { pick, type TriggerKind, type TriggerProblem } from './trigger-kind.js';

/**
 * API-callable process (public type 17, the packaged business process): started by
 * `POST /v3/app/workflow/hooks/{process_id}` with its declared `inputs`, answering its `outputs`.
 */
export const apiTrigger: TriggerKind = {
  type: TriggerType.api,
  name: 'api',
  prepare(raw) {
    const problems: TriggerProblem[] = [];
    const inputs = parametersOf(pick(raw, 'inputs', 'inputParameters'), 'inputs', true, 0, problems);
    const outputs = parametersOf(pick(raw, 'outputs', 'outputParameters'), 'outputs', false, 0, problems);
    return Promise.resolve({ config: { inputs, outputs }, problems });
  },
  worksheetOf: () => null,
};
