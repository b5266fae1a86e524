import type { ProcessStatePatch, ProcessStatus } from '../shared/process-fields.js';
import type { NodeWait } from './node-type.js';
import { ENDED, type RunStatus } from './run-store.js';

/** How a run's status reads as the record's `_processStatus`. */
export function processStatusOf(status: RunStatus): ProcessStatus {
  if (status === 'passed') return 'pass';
  if (status === 'refused') return 'refuse';
  if (status === 'aborted' || status === 'failed') return 'abort';
  return 'other';
}

/** What a commit of a run that shows its process changes. */
export interface ProcessMove {
  /** The run's status before the commit (as stored) and after it. */
  before: RunStatus;
  after: RunStatus;
  /** The workflow's name, the run's initiator and trigger time. */
  processName: string;
  initiatorId: string;
  startedAt: number;
  now: number;
  /** The wait the run enters, and whether it is the wait it was in (a to-do decided, others still open). */
  wait?: NodeWait;
  sameWait?: boolean;
}

function assigneesOf(wait: NodeWait | undefined): string[] | undefined {
  const assignees = wait?.state?.assignees;
  return Array.isArray(assignees) && assignees.every((id) => typeof id === 'string') ? (assignees as string[]) : undefined;
}

/**
 * The record's process fields after a commit: a run starting takes the record over (name,
 * initiator, in progress, the previous run's times cleared); entering a wait (or waiting anew,
 * `wait.fresh`) stamps the node's start and its deadline; every wait, a resumed one too, shows who
 * must act (from `wait.state.assignees`); leaving one clears them; an end
 * gives the status and completion time. Null when the commit changes nothing shown. Assignees a
 * node set itself (`noteProcessState` in its step) are left alone unless the wait names them.
 */
export function processPatch(move: ProcessMove): ProcessStatePatch | null {
  const patch: ProcessStatePatch = {};
  if (move.before === 'queued') {
    Object.assign(patch, { processName: move.processName, initiatedBy: move.initiatorId, initiatedAt: move.startedAt, processStatus: 'other', nodeStartedAt: null, dueAt: null, approvalCompletedAt: null });
  }
  if (move.after === 'waiting') {
    if (!move.sameWait || move.wait?.fresh) Object.assign(patch, { nodeStartedAt: move.now, dueAt: move.wait?.until ?? null });
    const assignees = assigneesOf(move.wait);
    if (assignees) patch.nodeAssignees = assignees;
  } else if (move.before === 'queued' || move.before === 'waiting') {
    Object.assign(patch, { nodeAssignees: [], dueAt: null });
  }
  if (ENDED.has(move.after)) Object.assign(patch, { processStatus: processStatusOf(move.after), approvalCompletedAt: move.now, nodeAssignees: [], dueAt: null });
  return Object.keys(patch).length === 0 ? null : patch;
}
