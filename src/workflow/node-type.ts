import type { TSchema, Static } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { FieldValueInput } from '../modules/records/value-codec.js';
import type { Parameter } from '../modules/workflows/index.js';
import type { ValueScope } from './value-refs.js';
import type { HttpPort, MailPort, NoticePort, PeoplePort, WorkflowsPort } from './node-ports.js';

/**
 * The contract of a workflow node type. Each node type is one file under `node-types/` and one line
 * in `registry.ts` (ARCHITECTURE.md §4): its config schema (checked when nodes are saved and when a
 * workflow is published, never first when it runs), its named exits, and one `run`.
 * @example export const delayNode = defineNodeType({ type: 'delay', code: 12, config: DelayConfig, exits: ['next'], effects: 'none', run: … })
 */
export interface NodeType<C extends TSchema = TSchema> {
  /** The public `nodeType` name, e.g. `update_record`. */
  type: string;
  /** The public internal node type id (facts §7.4: 1 branch, 4 approval, 12 delay, …). */
  code: number;
  /** The schema of `config`, as saved. */
  config: C;
  /** The exits a node of this type may leave by; the first is the one a plain sequence follows. */
  exits: readonly string[];
  /**
   * What the node does outside its own step: `database` nodes run inside the step's transaction
   * (their record writes and the step commit together, exactly once); `external` nodes (mail, HTTP,
   * code) run before it, so that no transaction waits on the network (their effect happens at least
   * once: a crash between the effect and the commit repeats it); `none` nodes compute only.
   */
  effects: 'database' | 'external' | 'none';
  /**
   * Whether a run through a node of this type shows its process on the record that triggered it
   * (`_processName` … `_processStatus`, kept by the runner): the types that wait on people
   * (approval blocks, approve and fill-in steps). A wait's `state.assignees` (account ids: who must
   * act now), when given, becomes the record's `_nodeAssignees`, on every wait and every resumed one.
   */
  showsProcess?: boolean;
  /**
   * The containers nodes may sit in (their `parentNode`), for types that hold nodes: a branch's
   * path aliases, an approval block's own alias.
   */
  containers?(config: Static<C>, alias: string): string[];
  /** The only containers a node of this type may sit in (approve and fill-in: only in approval blocks); any when absent. */
  onlyInside?: readonly string[];
  /** Checks beyond the schema, against the workflow (fields exist, referenced nodes come earlier). */
  check?(config: Static<C>, at: NodeCheckContext): NodeProblem[] | Promise<NodeProblem[]>;
  /** Runs the node. */
  run(config: Static<C>, ctx: NodeContext): Promise<NodeOutcome>;
  /**
   * A waiting node's answer to its timer (a delay's end, an approval's deadline) or to a signal
   * (a to-do decided): how it leaves, or that it waits on.
   */
  resume?(config: Static<C>, wake: NodeWake, ctx: NodeContext): Promise<NodeOutcome>;
  /**
   * For types with containers: which one the run goes into (a branch's path), or null to go on
   * after the node. Called instead of `run`.
   */
  enter?(config: Static<C>, ctx: NodeContext): Promise<string | null>;
}

/**
 * How a node ends: by an exit with its output, or by waiting. Whatever the exit, the run goes on
 * with the node after it (branches route on a node's `exit`, which its output carries); `end` ends
 * the whole run instead, with that status (an approval refused, a return node).
 */
export type NodeOutcome =
  | {
      exit: string;
      output?: Record<string, unknown>;
      end?: 'passed' | 'refused' | 'aborted';
      /** Goes on at this node instead of the next: an earlier node of the same container (an approval returned to an earlier step). */
      goTo?: string;
      /**
       * Sets the exit of the node owning the container this node sits in (an approval block's result,
       * for later branches to route on); with `leave`, the run also leaves the container and goes on
       * after its owner (a rejection that leaves the block by `rejected`).
       */
      container?: { exit: string; leave?: boolean };
      /** With `end`: the run's outputs (a return node's), kept on the run and handed to a waiting parent run. */
      runOutputs?: Record<string, unknown>;
    }
  | { wait: NodeWait };

/** Thrown by a node for a failure that may pass (a timeout, a 503): the step is tried again later, with backoff. */
export class RetryLater extends Error {}

/** A wait: until a time (delays, deadlines) and/or a signal (to-dos decided); `state` is kept for `resume`. */
export interface NodeWait {
  /** Epoch ms the runner wakes the node at; absent: only a signal wakes it. */
  until?: number;
  /** What the node keeps until it resumes (JSON). */
  state?: Record<string, unknown>;
  /**
   * A resumed node that waits anew rather than on (an approval returned to its initiator, or
   * resubmitted): the record's `_nodeStartedAt` and `_dueAt` are set again, as when a node starts waiting.
   */
  fresh?: boolean;
}

/** What woke a waiting node. */
export type NodeWake =
  | { kind: 'timer'; state: Record<string, unknown> }
  | { kind: 'signal'; state: Record<string, unknown>; signal: Record<string, unknown> };

/** A problem with a node's config, as `validate` and the batch report it. */
export interface NodeProblem {
  /** Path inside `config`, e.g. `fields[0].fieldId`. */
  path: string;
  message: string;
}

/** What a node's check may ask: the nodes before it, and worksheets. */
export interface NodeCheckContext {
  appId: string;
  /** The aliases of nodes that run before this one on every path, with their types. */
  earlier: ReadonlyMap<string, string>;
  /**
   * Whether the whole workflow is being checked to be published (`validate`, `publish`), not nodes
   * being saved (`nodes/batch`): what only a publication needs (a sub-process's child published
   * first) is checked then, so that a draft may be built in any order.
   */
  wholeWorkflow?: boolean;
  /** A worksheet of the application by id or alias, with its field ids and types; null if none. */
  worksheet(key: string): Promise<{ id: string; name: string; fields: ReadonlyMap<string, string> } | null>;
  /**
   * A workflow of the application (a sub-process's), when the checker can look them up: as its
   * published version has it (its trigger type and declared inputs), or its draft before it was
   * first published.
   */
  workflow?(id: string): Promise<{ id: string; name: string; triggerType: number; published: boolean; inputs: readonly Parameter[] } | null>;
}

/** A record as nodes see it: its id and values by field id (the wire read shape). */
export interface NodeRecord {
  worksheetId: string;
  rowId: string;
  fields: Record<string, unknown>;
}

/**
 * What a node may do while it runs. A node never touches the database: records go through the
 * record service (permissions, business rules, logs and the outbox of further workflows included),
 * inside the step's transaction for `database` nodes.
 */
export interface NodeContext {
  /** Values of the run so far, for value references (`value-refs.ts`). */
  values: ValueScope;
  records: RecordsPort;
  /** Mail out; null when `SMTP_URL` is not set. */
  mail: MailPort | null;
  http: HttpPort;
  people: PeoplePort;
  /** In-app notices; null until the notifications module is wired in (`engine.ts`). */
  notices: NoticePort | null;
  workflows: WorkflowsPort;
  /** Epoch ms now. */
  now(): number;
  timeZone: string;
  log: FastifyBaseLogger;
  run: {
    id: string;
    workflowId: string;
    appId: string;
    initiatorId: string;
    nodeAlias: string;
    nodeName: string;
    /** The number of the step this node runs as (a waiting step keeps it until it leaves): to-dos name it. */
    seq: number;
    /** The record that triggered the run, when one did. */
    worksheetId: string | null;
    rowId: string | null;
    /** This try of the step (1 first) and the last there will be: a node throws `RetryLater` only before the last. */
    attempt: number;
    maxAttempts: number;
  };
  /** The node owning the container this node sits in (an approval block for its steps), when it sits in one. */
  container?: { alias: string; type: string; config: unknown };
  /** The to-dos of this step (approvals, fill-ins, copies) and notifications. */
  todos: TodoPort;
}

/** Kinds of to-dos (facts §7.6 action types): 0 the initiator's (resubmit after a return), 3 fill in, 4 approve, 5 copy (cc). */
export type TodoKind = 0 | 3 | 4 | 5;

/** Whom a step's to-dos go to, as the node resolved its config: accounts, groups, and the run's initiator. */
export interface AssigneeQuery {
  users: string[];
  /** Roles of the application. */
  roles: string[];
  departments: string[];
  jobs: string[];
  orgRoles: string[];
  initiator: boolean;
  /** The manager of the initiator's department. */
  initiatorManager: boolean;
}

/** One to-do of a step as nodes see it. */
export interface TodoItem {
  id: string;
  kind: TodoKind;
  assigneeId: string;
  /** Facts §7.6: 0 pending; approval 1 passed, 4 rejected or returned; fill 1 filled; 5 no longer needed. */
  status: number;
  action: string | null;
  opinion: string | null;
  actedBy: string | null;
  actedAt: number | null;
  createdAt: number;
}

/**
 * The to-dos of the step a node runs as, in the step's transaction: whom they go to, opening them
 * (each assignee notified), what was decided, and closing what is left.
 */
export interface TodoPort {
  /** The accounts a query names now: active members of the organization, in order, each once (pseudo-users left out). */
  resolve(query: AssigneeQuery): Promise<string[]>;
  /** Opens to-dos of this step, one per assignee, each notified. */
  open(kind: TodoKind, assigneeIds: readonly string[], options?: { mode?: string; dueAt?: number | null; note?: string }): Promise<void>;
  /** This step's to-dos so far (every round), oldest first. */
  items(): Promise<TodoItem[]>;
  /** Closes this step's pending to-dos: decided by the step (a deadline's action) or no longer needed (status 5); returns how many. */
  close(how: { status: number; action: string; opinion?: string }): Promise<number>;
  /** Notifies accounts in the application (in-app). */
  notify(accountIds: readonly string[], note: { kind: string; title: string; body: string }): Promise<void>;
}

/** The record operations nodes have. */
export interface RecordsPort {
  get(worksheetId: string, rowId: string): Promise<NodeRecord | null>;
  list(worksheetId: string, filter: unknown, limit: number, sorts?: Array<{ field: string; isAsc: boolean }>): Promise<NodeRecord[]>;
  /** The records `rowId` relates to through its relation field `fieldId`, at most `limit`, in link order. */
  related(worksheetId: string, rowId: string, fieldId: string, limit: number): Promise<Array<Omit<NodeRecord, 'worksheetId'>>>;
  create(worksheetId: string, fields: FieldValueInput[]): Promise<string>;
  update(worksheetId: string, rowId: string, fields: FieldValueInput[]): Promise<void>;
  delete(worksheetId: string, rowId: string): Promise<void>;
}

/** Declares a node type with its config's type inferred from its schema. */
export function defineNodeType<C extends TSchema>(nodeType: NodeType<C>): NodeType<C> {
  return nodeType;
}
