/**
 * The public numbers of instances and to-dos (facts §7.6), mapped from the run store's statuses.
 * Instance: 1 running or waiting, 2 passed, 3 aborted (terminated, revoked), 4 failed (an error
 * stopped it), 5 rejected (refused). To-do kinds: 4 approve, 3 fill in, 5 copy, 0 the initiator's
 * resubmit. To-do statuses: 0 pending (a copy: unread), 1 passed / filled / read / resubmitted,
 * 4 rejected or returned, 5 no longer needed.
 */

export const INSTANCE_STATUS: Readonly<Record<string, number>> = { queued: 1, running: 1, waiting: 1, passed: 2, aborted: 3, failed: 4, refused: 5 };

/** The run statuses a public instance status stands for (`status` filters of the list). */
export function runStatusesOf(publicStatus: number): string[] {
  return Object.entries(INSTANCE_STATUS)
    .filter(([, n]) => n === publicStatus)
    .map(([status]) => status);
}

export const KIND = { resubmit: 0, fill: 3, approve: 4, cc: 5 } as const;

export const ITEM_STATUS = { pending: 0, done: 1, rejected: 4, notNeeded: 5 } as const;

/** What a to-do is, in words (notification kinds and titles). */
export const KIND_WORDS: Readonly<Record<number, string>> = { 0: 'resubmit', 3: 'fill in', 4: 'approve', 5: 'copied to you' };

/** An epoch-ms time on the wire (ISO 8601 UTC with milliseconds), or null. */
export const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

/** The link a to-do's notification carries. */
export const todoLink = (runId: string, workId: string): string => `/v3/app/workflow/instance/${runId}?workId=${workId}`;
