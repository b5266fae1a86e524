import type { MailMessage, MailReceipt } from '../mail/mailer.js';

/**
 * What nodes reach beyond records, each through a narrow port the runner builds (`node-context.ts`):
 * mail, outbound HTTP, people's addresses, in-app notices and other workflows. Nodes never see the
 * database, the configuration or the network directly.
 */

/** Mail out through `SMTP_URL`; throws `MailError` (transient or not). */
export interface MailPort {
  send(message: MailMessage): Promise<MailReceipt>;
}

/** One outbound HTTP request. */
export interface HttpExchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/** The answer: status, headers (lower-case names) and the body as text (cut at the port's limit). */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Outbound HTTP, refusing private and loopback targets unless `HTTP_REQUEST_PRIVATE`. Throws
 * `HttpFailure`: `refused` (the address rule, a bad URL) or not (no connection, a timeout).
 */
export interface HttpPort {
  request(exchange: HttpExchange): Promise<HttpAnswer>;
}

export class HttpFailure extends Error {
  constructor(
    message: string,
    /** The request was not sent and never will be (a refused address, a bad URL): no retry helps. */
    readonly refused: boolean,
  ) {
    super(message);
  }
}

/** People of the run's organization. */
export interface PeoplePort {
  /** The email addresses of these accounts (active members of the organization only), in order, each once. */
  emailsOf(accountIds: readonly string[]): Promise<string[]>;
}

/** An in-app notice to people (`send_internal_notice`). */
export interface Notice {
  accountIds: string[];
  title: string;
  body: string;
  appId: string;
  runId: string;
  /** The record the notice is about, when there is one. */
  worksheetId: string | null;
  rowId: string | null;
}

/** In-app notices, stored in the step's transaction (the notifications module's `notify`). */
export interface NoticePort {
  notify(notice: Notice): Promise<void>;
}

/** Other workflows of the application: a sub-process's run. */
export interface WorkflowsPort {
  /**
   * Starts a run of the published, API-callable workflow `workflowId` with `inputs` (in the step's
   * transaction: it starts when the step commits). With `wait`, the run signals this node when it
   * ends. A run that may not start (the chain of workflows is too deep) throws.
   */
  startRun(workflowId: string, inputs: Record<string, unknown>, wait: boolean): Promise<{ runId: string }>;
}
