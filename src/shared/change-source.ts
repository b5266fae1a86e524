/**
 * Where a record change comes from: the record log's source (1 manual or API, 2 workflow, 3 button),
 * whether it may trigger workflows (`triggerWorkflow` of the write, default true), and how deep in a
 * chain of workflows it is (0 for a person's or a script's write; a run's writes are one deeper than
 * the write that triggered the run).
 */
export interface ChangeSource {
  type: 1 | 2 | 3;
  /** false: workflows listening to the worksheet are not triggered by this change. */
  triggerWorkflow?: boolean;
  chainDepth?: number;
}

export const API_SOURCE: ChangeSource = { type: 1 };
