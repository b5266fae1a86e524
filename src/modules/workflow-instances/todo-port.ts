import { AppError } from '../../shared/app-error.js';
import { newRowId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { NodeContext, TodoItem, TodoKind, TodoPort } from '../../workflow/node-type.js';
import { notify } from '../notifications/index.js';
import { cellText, getRecord } from '../records/index.js';
import { loadSchema } from '../worksheets/index.js';
import { resolveAssignees } from './assignees.js';
import * as repository from './repository.js';
import { KIND_WORDS, todoLink } from './statuses.js';

/** Notification kinds of opened to-dos. */
const NOTE_KIND: Readonly<Record<TodoKind, string>> = { 0: 'returned', 3: 'todo', 4: 'todo', 5: 'cc' };

/** The record's title as it reads now ('' when the run has no record, or it is gone). */
async function recordTitle(ctx: ServiceContext, worksheetId: string | null, rowId: string | null): Promise<string> {
  if (!worksheetId || !rowId) return '';
  try {
    const schema = await loadSchema(ctx, worksheetId);
    const titleField = schema.fields.find((f) => f.isTitle);
    if (!titleField) return '';
    const record = (await getRecord(ctx, worksheetId, rowId, { useFieldIdAsKey: true })) as Record<string, unknown>;
    return cellText(record[titleField.id]);
  } catch (error) {
    if (error instanceof AppError) return '';
    throw error;
  }
}

export function itemOf(row: repository.WorkItemRow): TodoItem {
  return {
    id: row.id,
    kind: Number(row.kind) as TodoKind,
    assigneeId: row.assignee_id,
    status: Number(row.status),
    action: row.action,
    opinion: row.opinion,
    actedBy: row.acted_by,
    actedAt: row.acted_at === null ? null : Number(row.acted_at),
    createdAt: Number(row.created_at),
  };
}

/**
 * The to-dos of one step, for its node (`workflow/node-type.ts` TodoPort), in the step's context:
 * its transaction when the node writes, acting as the workflow. Each opened to-do notifies its
 * assignee, linking to the to-do.
 */
export function todoPort(ctx: ServiceContext, step: NodeContext['run']): TodoPort {
  const db = ctx.db;
  // Decisions and instance actions lock the run before they touch its to-dos; the step does the same,
  // so that both take their locks in one order (PostgreSQL would otherwise break a deadlock by aborting one).
  let locked = false;
  const lockRun = async () => {
    if (!locked && db.isTransaction) await repository.lockRun(db, ctx.dialect, step.id);
    locked = true;
  };
  let described: Promise<{ processName: string; title: string }> | null = null;
  const describe = () =>
    (described ??= Promise.all([repository.workflowName(db, step.workflowId), recordTitle(ctx, step.worksheetId, step.rowId)]).then(([processName, title]) => ({ processName, title })));
  return {
    resolve: (query) => resolveAssignees(db, ctx.actor.organizationId, step.appId, step.initiatorId, query),

    async open(kind, assigneeIds, options = {}) {
      if (assigneeIds.length === 0) return;
      await lockRun();
      const { processName, title } = await describe();
      const now = ctx.now();
      const rows = assigneeIds.map((assigneeId) => ({
        id: newRowId(),
        run_id: step.id,
        app_id: step.appId,
        workflow_id: step.workflowId,
        node_alias: step.nodeAlias,
        node_name: step.nodeName,
        seq: step.seq,
        kind,
        mode: options.mode ?? null,
        assignee_id: assigneeId,
        status: 0,
        action: null,
        opinion: null,
        filled: null,
        note: options.note ?? null,
        acted_by: null,
        acted_at: null,
        due_at: options.dueAt ?? null,
        process_name: processName,
        title,
        worksheet_id: step.worksheetId,
        row_id: step.rowId,
        created_at: now,
      }));
      await repository.insertItems(db, rows);
      for (const row of rows) {
        const body = [title, options.note].filter(Boolean).join(' — ');
        await notify(db, { accountIds: [row.assignee_id], kind: NOTE_KIND[kind], title: `${processName}: ${KIND_WORDS[kind]} (${step.nodeName})`, body, link: todoLink(step.id, row.id), appId: step.appId, at: now }, { mail: ctx.notificationMail });
      }
    },

    items: async () => (await repository.itemsOfStep(db, step.id, step.seq)).map(itemOf),

    async close(how) {
      await lockRun();
      return repository.closePending(db, step.id, step.seq, { ...how, actedBy: how.status === 5 ? null : ctx.actor.accountId, now: ctx.now() });
    },

    async notify(accountIds, note) {
      const { processName } = await describe();
      await notify(db, { accountIds, kind: note.kind, title: note.title || processName, body: note.body, link: `/v3/app/workflow/instance/${step.id}`, appId: step.appId, at: ctx.now() }, { mail: ctx.notificationMail });
    },
  };
}
