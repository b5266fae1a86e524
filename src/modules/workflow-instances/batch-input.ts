import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { DecisionAction, DecisionInput } from './decision-checks.js';
import { decide, type BatchResult } from './decisions.js';

/** Most to-dos one batch call decides. */
export const MAX_BATCH_ITEMS = 1000;

/** The body of `POST /v3/app/workflow/instance/batch`, in either of its forms. */
export interface BatchBody {
  /** Public form: 4 (approvals). */
  type?: number;
  /** Public form: 4 pass, 5 reject. */
  batchOperationType?: number;
  selects?: Array<{ id: string; workId?: string; opinion?: string }>;
  /** Plain form. */
  action?: DecisionAction;
  items?: DecisionInput[];
}

const PUBLIC_OPERATIONS: Readonly<Record<number, DecisionAction>> = { 4: 'approve', 5: 'reject' };

/** The action and decisions a body asks for, in either form (10001 when it holds neither, or a form half given). */
export function decisionsOf(body: BatchBody): { action: DecisionAction; inputs: DecisionInput[] } {
  if (body.selects !== undefined || body.batchOperationType !== undefined) {
    if (body.type !== undefined && body.type !== 4) throw AppError.invalidValue(`type: only 4 (approvals) is decided in batch, got ${body.type}; fill-ins go as {action: "fill", items}`);
    const action = PUBLIC_OPERATIONS[body.batchOperationType ?? -1];
    if (!action) throw AppError.invalidParameters(`batchOperationType is required: 4 (pass) or 5 (reject)${body.batchOperationType === undefined ? '' : `, got ${body.batchOperationType}`}`);
    if (!body.selects) throw AppError.invalidParameters('selects is required: [{id, workId, opinion}]');
    return { action, inputs: body.selects };
  }
  if (body.action === undefined || body.items === undefined) throw AppError.invalidParameters('action and items are required (or the public form: type, batchOperationType, selects)');
  return { action: body.action, inputs: body.items };
}

/** Decides a batch of to-dos in either body form; each to-do in its own transaction. */
export async function decideBatch(ctx: ServiceContext, body: BatchBody): Promise<BatchResult> {
  const { action, inputs } = decisionsOf(body);
  if (inputs.length === 0) throw AppError.invalidParameters('the batch holds no to-do');
  if (inputs.length > MAX_BATCH_ITEMS) throw AppError.invalidParameters(`at most ${MAX_BATCH_ITEMS} to-dos per call, got ${inputs.length}`);
  return decide(ctx, action, inputs);
}
