/** The workflow engine: node types, the graph runs walk, triggers and the runner. */
export { forgetWorksheetListeners, worksheetListeners, type WorksheetListener } from './trigger-cache.js';
export { MAX_CHAIN_DEPTH, RUN_JOB, TriggerType, type TriggerSpec, type WorkflowDefinition, type WorksheetEvent, type WorksheetTriggerConfig } from './definition.js';
export { WorkflowGraph, type GraphProblem, type NodeSpec } from './graph.js';
export { nodeTypeOf, nodeTypeNames } from './registry.js';
export type { NodeType, NodeContext, NodeOutcome, NodeProblem, NodeCheckContext, RecordsPort, NodeRecord } from './node-type.js';
export { ValueRef, resolveValue } from './value-refs.js';
export { signalParent, signalRun } from './runner.js';
export { startApiRun, type ApiRunStart } from './run-starter.js';
export type { NodeServices } from './node-context.js';
export type { HttpPort, MailPort, Notice, NoticePort, PeoplePort, WorkflowsPort } from './node-ports.js';
export { ConditionGroup, Condition, groupHolds } from './conditions.js';
export { planTimeTrigger, reconcileTimeTriggers, DATE_SWEEP_MS } from './time-triggers.js';
export { nextScheduleTime, type ScheduleConfig } from './schedule-times.js';
export { onRunEnded } from './run-signal.js';
export { createRuns, ENDED as ENDED_STATUSES, type NewRun } from './run-store.js';
export type { AssigneeQuery, TodoItem, TodoKind, TodoPort } from './node-type.js';
export { Recipient, Recipients } from './recipients.js';
