import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/connection.js';
import type { Config } from '../config/index.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { httpClient } from './http-client.js';
import { activeMemberEmails } from '../modules/people/index.js';
import { notify, type Delivery } from '../modules/notifications/index.js';
import type { ServiceContext } from '../shared/service-context.js';
import type { NodeContext, TodoPort } from './node-type.js';
import type { HttpPort, NoticePort } from './node-ports.js';
import { recordsPort } from './records-port.js';
import type { RunRow } from './run-store.js';
import { startApiRun } from './run-starter.js';

/** The server's services that nodes reach through ports (built once per process, `engine.ts`). */
export interface NodeServices {
  /** Null when `SMTP_URL` is not set. */
  mailer: Mailer | null;
  http: HttpPort;
  /** In-app notices on a connection (the step's transaction), dated by the run's clock. */
  notices: ((db: Executor, clock: () => number) => NoticePort) | null;
}

/**
 * The services of a process that runs workflows (the server, `tabularium worker`), from its
 * configuration: mail when `SMTP_URL` is set, outbound HTTP by `HTTP_REQUEST_PRIVATE`, notices
 * mailed as other notifications are (`notificationMail`). Its owner closes the mailer when it stops.
 */
export function nodeServices(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'httpRequestPrivate' | 'notificationMail'>): NodeServices {
  return { mailer: createMailer(config.smtpUrl, config.mailFrom), http: httpClient(config.httpRequestPrivate), notices: inAppNotices({ mail: config.notificationMail }) };
}

/** A notice node's notices as notifications of kind `notice`, leading to the record when the run has one. */
function inAppNotices(delivery: Delivery): NonNullable<NodeServices['notices']> {
  return (db, clock) => ({
    async notify(notice) {
      const link = notice.worksheetId && notice.rowId ? `/v3/app/worksheets/${notice.worksheetId}/rows/${notice.rowId}` : '';
      await notify(db, { accountIds: notice.accountIds, kind: 'notice', title: notice.title, body: notice.body, link, appId: notice.appId, at: clock() }, delivery);
    },
  });
}

/** Where a node runs: its run, its step's number and try, and the connection its ports act on. */
export interface NodePlace {
  run: RunRow;
  nodeAlias: string;
  seq: number;
  attempt: number;
  maxAttempts: number;
  organizationId: string;
  /** The record service acting as the workflow, on `db` (the step's transaction for database nodes). */
  service: ServiceContext;
  db: Executor;
  clock: () => number;
  timeZone: string;
  log: FastifyBaseLogger;
  nodeName: string;
  /** The to-dos of this step (`modules/workflow-instances`). */
  todos: TodoPort;
  /** The node owning the container the node sits in, when it sits in one. */
  container?: NodeContext['container'];
}

/** The context a node runs with: its ports, on the place's connection. */
export function nodeContext(services: NodeServices, place: NodePlace): NodeContext {
  const { run, db } = place;
  return {
    values: { outputs: run.state, triggeredAt: run.startedAt, triggeredBy: run.initiatorId, now: place.clock },
    records: recordsPort(place.service),
    mail: services.mailer,
    http: services.http,
    people: {
      async emailsOf(accountIds) {
        const emails = await activeMemberEmails(db, place.organizationId, [...new Set(accountIds)]);
        return [...new Set(accountIds.flatMap((id) => (emails.get(id) ? [emails.get(id)!] : [])))];
      },
    },
    notices: services.notices?.(db, place.clock) ?? null,
    workflows: {
      async startRun(workflowId, inputs, wait) {
        const runId = await startApiRun(
          db,
          { workflowId, appId: run.appId, inputs, initiatorId: run.initiatorId, chainDepth: run.chainDepth + 1, ...(wait ? { parent: { runId: run.id, nodeAlias: place.nodeAlias, seq: place.seq } } : {}) },
          place.clock(),
        );
        return { runId };
      },
    },
    now: place.clock,
    timeZone: place.timeZone,
    log: place.log,
    run: {
      id: run.id,
      workflowId: run.workflowId,
      appId: run.appId,
      initiatorId: run.initiatorId,
      nodeAlias: place.nodeAlias,
      nodeName: place.nodeName,
      seq: place.seq,
      worksheetId: run.worksheetId,
      rowId: run.rowId,
      attempt: place.attempt,
      maxAttempts: place.maxAttempts,
    },
    ...(place.container ? { container: place.container } : {}),
    todos: place.todos,
  };
}
