import { administers, forbidden } from '../../access/index.js';
import { PSEUDO_USERS, type Actor } from '../../shared/actor.js';
import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { LoadedVersion } from '../../workflow/versions.js';
import { ENDED } from '../../workflow/run-store.js';
import { checkFieldValues } from '../records/index.js';
import type { FieldValueInput } from '../records/index.js';
import type { InstanceRun, WorkItemRow } from './repository.js';
import { iso, KIND, KIND_WORDS } from './statuses.js';

/** What may be done to a to-do, and the kind of to-do each is for. */
export type DecisionAction = 'approve' | 'reject' | 'return' | 'fill' | 'resubmit';

export const KIND_OF: Readonly<Record<DecisionAction, number>> = { approve: KIND.approve, reject: KIND.approve, return: KIND.approve, fill: KIND.fill, resubmit: KIND.resubmit };

/** One decision asked for: the instance (run) id, its to-do (`workId`; the caller's pending one when absent), and what goes with it. */
export interface DecisionInput {
  id: string;
  workId?: string;
  opinion?: string;
  /** A fill-in's values, as a record update takes them. */
  fields?: FieldValueInput[];
  /** A return's target: an earlier step's alias, or `initiator` (the default). */
  to?: string | null;
}

/** The refusal of a decision on a to-do that is no longer pending: it was decided (or closed), or its instance ended. */
export function finished(item: WorkItemRow, run: InstanceRun | undefined): AppError {
  const refuse = (message: string) => new AppError(ErrorCode.InvalidValue, 409, `workId "${item.id}": ${message}`);
  if (Number(item.status) === 0 && run && ENDED.has(run.status)) return refuse(`its instance has ended (${run.status}); this to-do cannot be decided any more`);
  if (Number(item.status) === 5 || item.action === 'none') return refuse('this to-do is no longer needed (the step was decided by others or the instance ended); it cannot be decided again');
  return refuse(`this to-do is already decided (${item.action ?? 'done'} at ${iso(item.acted_at) ?? '?'}); it cannot be decided again`);
}

/** Only the to-do's assignee, or an administrator of the application acting for them (10005 otherwise). */
export function requireMayAct(actor: Actor, item: WorkItemRow): void {
  if (item.assignee_id === actor.userId || administers(actor)) return;
  throw forbidden(actor, `workId "${item.id}": only its assignee or an administrator of the application may act on this to-do`);
}

/** The node config of the to-do's step, from the version its run follows. */
export function stepConfig(loaded: LoadedVersion, item: WorkItemRow): Record<string, unknown> {
  return (loaded.graph.node(item.node_alias)?.config ?? {}) as Record<string, unknown>;
}

/** The opinion, trimmed; required when the approval step says so (10001). */
export function opinionOf(input: DecisionInput, action: DecisionAction, config: Record<string, unknown>, item: WorkItemRow): string | null {
  const opinion = input.opinion?.trim() ?? '';
  if (opinion === '' && config.opinionRequired === true && (action === 'approve' || action === 'reject' || action === 'return')) {
    throw AppError.invalidParameters(`opinion is required by the approval step "${item.node_name}"`);
  }
  return opinion === '' ? null : opinion;
}

/**
 * Where a return goes: `null` for the initiator (who must be a person), or an earlier approve or
 * fill-in step of the same approval block (10002 naming `to` otherwise).
 */
export function returnTarget(input: DecisionInput, run: InstanceRun, loaded: LoadedVersion, item: WorkItemRow): string | null {
  const to = input.to?.trim() ?? '';
  if (to === '' || to === 'initiator') {
    if (PSEUDO_USERS.has(run.initiator_id)) throw AppError.invalidValue(`to: the instance was started by ${run.initiator_id}, not a person; it can only be returned to an earlier step`);
    return null;
  }
  const { graph } = loaded;
  const target = graph.node(to);
  const here = graph.node(item.node_alias);
  const earlier = here ? graph.before(here.alias) : [];
  if (!target || !here || target.parent !== here.parent || !earlier.includes(to) || (target.type !== 'approve' && target.type !== 'fill_in')) {
    throw AppError.invalidValue(`to: "${to.slice(0, 60)}" is not an earlier approve or fill-in step of this approval; name one of them or "initiator"`);
  }
  return to;
}

/**
 * A fill-in's values: only the step's fields, each once, every required one filled (430019), each
 * value as the record would take it (checked now, written by the step). Returns them by field id.
 */
export async function filledValues(ctx: ServiceContext, input: DecisionInput, run: InstanceRun, config: Record<string, unknown>): Promise<FieldValueInput[]> {
  if (!run.worksheet_id) throw AppError.invalidValue('fields: this instance has no record to fill in');
  const fields = input.fields ?? [];
  const allowed = (config.fields as Array<{ fieldId: string; required?: boolean }> | undefined) ?? [];
  const ids = await checkFieldValues(ctx, run.worksheet_id, fields, '');
  const resolved = fields.map((field, i) => ({ id: ids[i], value: field.value }));
  resolved.forEach((field, i) => {
    if (!allowed.some((f) => f.fieldId === field.id)) throw AppError.invalidValue(`fields[${i}].id: "${fields[i].id}" is not a field this step lets you fill`);
  });
  for (const wanted of allowed.filter((f) => f.required)) {
    const given = resolved.find((f) => f.id === wanted.fieldId);
    if (!given || given.value === null || given.value === '' || (Array.isArray(given.value) && given.value.length === 0)) {
      throw new AppError(ErrorCode.RequiredFieldEmpty, 400, `fields: the field "${wanted.fieldId}" must be filled in`);
    }
  }
  return resolved;
}

/** The kind of to-do an action is for (10002 when the to-do is another kind). */
export function requireKind(action: DecisionAction, item: WorkItemRow): void {
  if (KIND_OF[action] === Number(item.kind)) return;
  throw AppError.invalidValue(`workId "${item.id}": this to-do is to ${KIND_WORDS[Number(item.kind)] ?? 'act'}, not to ${action}`);
}
