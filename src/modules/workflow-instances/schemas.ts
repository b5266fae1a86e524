import { Type, type TSchema } from '@sinclair/typebox';

/** Wire schemas of the to-do endpoints (`/v3/app/workflow/instance/…`). */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Opinion = Type.String({ maxLength: 2000, description: 'The opinion given with the decision' });

export const InstanceParams = Type.Object({ instance_id: Type.String({ description: 'The instance (run) id' }) });

export const ListQuery = Type.Object({
  type: Type.Optional(Type.Integer({ description: '4 awaiting my approval (default), 3 awaiting my fill-in, 5 copied to me, 0 started by me, -1 done by me' })),
  keyword: Type.Optional(Type.String({ maxLength: 200, description: "Matches the workflow's name or the record's title" })),
  processId: Type.Optional(Type.String({ description: 'Only instances of this workflow' })),
  appId: Type.Optional(Type.String({ description: 'Accepted for the public form; the application is the credential’s' })),
  status: Type.Optional(Type.Integer({ description: 'Instance status: 1 running, 2 passed, 3 aborted, 4 failed, 5 rejected' })),
  startDate: Type.Optional(Type.String({ description: 'From this day (YYYY-MM-DD, server time zone) or time (ISO 8601)' })),
  endDate: Type.Optional(Type.String({ description: 'To this day, inclusive, or time' })),
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
});

const Person = Type.Object({ accountId: Type.String(), fullname: Type.String() });

const ListEntry = Type.Object({
  id: Type.String({ description: 'The instance id' }),
  workId: Nullable(Type.String({ description: 'The to-do; for type 0, the initiator’s resubmit to-do when the instance was returned' })),
  type: Type.Integer(),
  processId: Type.String(),
  processName: Type.String(),
  title: Type.String({ description: "The record's title" }),
  nodeAlias: Nullable(Type.String()),
  nodeName: Nullable(Type.String()),
  status: Type.Integer({ description: 'Instance status: 1 running, 2 passed, 3 aborted, 4 failed, 5 rejected' }),
  workStatus: Nullable(Type.Integer({ description: 'To-do status: 0 pending (unread), 1 done (read), 4 rejected or returned, 5 no longer needed' })),
  action: Type.Optional(Nullable(Type.String())),
  opinion: Type.Optional(Nullable(Type.String())),
  note: Type.Optional(Nullable(Type.String())),
  assignee: Type.Optional(Nullable(Person)),
  assignees: Type.Optional(Type.Array(Nullable(Person))),
  initiator: Nullable(Person),
  worksheetId: Type.Optional(Nullable(Type.String())),
  rowId: Type.Optional(Nullable(Type.String())),
  createdAt: Type.Optional(Type.String()),
  actedAt: Type.Optional(Nullable(Type.String())),
  dueAt: Type.Optional(Nullable(Type.String())),
  startedAt: Type.String(),
  endedAt: Nullable(Type.String()),
});

export const InstancePage = Type.Object({ instances: Type.Array(ListEntry), total: Type.Integer() });

export const DetailQuery = Type.Object({ workId: Type.Optional(Type.String({ description: "The to-do; the caller's latest when absent" })) });

const StepItem = Type.Object({ workId: Type.String(), type: Type.Integer(), nodeAlias: Type.String(), nodeName: Type.String(), assignee: Person });

export const InstanceDetail = Type.Object({
  id: Type.String(),
  processId: Type.String(),
  processName: Type.String(),
  status: Type.Integer(),
  initiator: Person,
  startedAt: Type.String(),
  endedAt: Nullable(Type.String()),
  reason: Nullable(Type.String({ description: 'Why an aborted or failed instance ended' })),
  work: Nullable(
    Type.Composite([
      StepItem,
      Type.Object({
        status: Type.Integer(),
        mode: Nullable(Type.String()),
        opinionRequired: Type.Boolean(),
        note: Nullable(Type.String()),
        dueAt: Nullable(Type.String()),
        createdAt: Type.String(),
      }),
    ]),
  ),
  record: Nullable(
    Type.Object({
      worksheetId: Type.String(),
      rowId: Type.String(),
      fields: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), alias: Type.String(), type: Type.String(), value: Type.Unknown() })),
    }),
  ),
  fillable: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), type: Type.String(), required: Type.Boolean() })),
  pending: Type.Array(StepItem),
  history: Type.Array(
    Type.Composite([
      StepItem,
      Type.Object({ status: Type.Integer(), action: Nullable(Type.String()), opinion: Type.String(), actedBy: Nullable(Person), actedAt: Nullable(Type.String()) }),
    ]),
  ),
});

const FieldValue = Type.Object({ id: Type.String({ description: 'Field id or alias' }), value: Type.Unknown(), type: Type.Optional(Type.Integer()) });

export const BatchBody = Type.Object({
  type: Type.Optional(Type.Integer({ description: 'Public form: 4 (approvals)' })),
  batchOperationType: Type.Optional(Type.Integer({ description: 'Public form: 4 pass, 5 reject' })),
  selects: Type.Optional(Type.Array(Type.Object({ id: Type.String({ minLength: 1 }), workId: Type.Optional(Type.String()), opinion: Type.Optional(Opinion), opinionType: Type.Optional(Type.Integer()), signature: Type.Optional(Type.Unknown()) }))),
  action: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('reject'), Type.Literal('return'), Type.Literal('fill'), Type.Literal('resubmit')], { description: 'Plain form: approve, reject, return, fill, resubmit' })),
  items: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String({ minLength: 1, description: 'The instance id' }),
        workId: Type.Optional(Type.String()),
        opinion: Type.Optional(Opinion),
        fields: Type.Optional(Type.Array(FieldValue, { description: 'A fill-in’s values' })),
        to: Type.Optional(Type.String({ description: 'A return’s target: an earlier step’s alias, or "initiator" (default)' })),
      }),
    ),
  ),
});

export const BatchResult = Type.Object({
  success: Type.Array(Type.String()),
  fail: Type.Array(Type.Object({ id: Type.String(), error_code: Type.Integer(), error_msg: Type.String() })),
});

export const ReturnBody = Type.Object({
  workId: Type.Optional(Type.String()),
  opinion: Type.Optional(Opinion),
  to: Type.Optional(Type.String({ description: 'An earlier approve or fill-in step’s alias, or "initiator" (the default)' })),
});

export const ResubmitBody = Type.Object({ workId: Type.Optional(Type.String()), opinion: Type.Optional(Opinion) });

export const UrgeResult = Type.Object({ urged: Type.Array(Type.String({ description: 'The accounts notified' })) });
