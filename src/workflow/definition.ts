import type { NodeSpec } from './graph.js';

/** The job kind that runs (and resumes) a workflow run (`runner.ts`). */
export const RUN_JOB = 'workflow.run';

/**
 * How deep a chain of workflows may go: a run's record writes trigger runs one level deeper, and a
 * run that would start deeper than this is recorded as failed with the reason instead (a workflow
 * updating the records that trigger it would otherwise run for ever).
 */
export const MAX_CHAIN_DEPTH = 5;

/** Trigger kinds (facts §7.3, the public start app types). */
export const TriggerType = {
  worksheet: 1,
  schedule: 5,
  dateField: 6,
  webhook: 7,
  api: 17,
} as const;

/** Worksheet events a worksheet trigger listens to. */
export type WorksheetEvent = 'create' | 'update' | 'create_or_update' | 'delete';

/** A workflow's trigger as saved and as frozen in a version. */
export interface TriggerSpec {
  type: number;
  /** The start node's alias, assigned by the system (`triggerAlias`). */
  alias: string;
  config: Record<string, unknown>;
  /** For worksheet and date-field triggers: the worksheet's id. */
  worksheetId: string | null;
}

/** The config of a worksheet-event trigger (type 1). */
export interface WorksheetTriggerConfig {
  worksheetId: string;
  event: WorksheetEvent;
  /** Updates trigger only when one of these fields changed (ids); any field when empty. */
  triggerFields?: string[];
  /** Only records passing this filter (the list filter language) trigger. */
  filter?: unknown;
}

/**
 * What a workflow's runs may take (`WorkflowDefinition.limits`; engine.md and docs/api.md).
 * @example { maxConcurrentRuns: 5, timeoutSeconds: 86_400 }
 */
export interface RunLimits {
  /**
   * How many runs of the workflow may be running at once, over every process (runs waiting on a
   * to-do or a timer do not count). A run that would exceed it stays queued and is tried again about
   * a second later. Absent or 0: no limit beyond the workers' own (WORKERS per process).
   */
  maxConcurrentRuns?: number;
  /**
   * Seconds from its trigger after which a run that has not ended (running, waiting or queued) is
   * aborted by the sweep, with the reason in its history. Absent or 0: never.
   */
  timeoutSeconds?: number;
}

/**
 * A published version of a workflow: what a run follows from start to end, whatever is edited or
 * published after it started. Stored as JSON in `workflow_versions.definition`.
 */
export interface WorkflowDefinition {
  workflowId: string;
  appId: string;
  name: string;
  version: number;
  trigger: TriggerSpec;
  nodes: NodeSpec[];
  limits?: RunLimits;
  /**
   * Whether its runs show their process on the record that triggered them (`_processName` …
   * `_processStatus`). Absent: when one of its nodes' types says so (`NodeType.showsProcess`: the
   * nodes that wait on people).
   */
  showsProcess?: boolean;
}
