import { Type } from '@sinclair/typebox';

/** Wire schemas of processes, hooks and run history; see docs/api.md "Workflow runs and hooks". */

export const ProcessParams = Type.Object({ process_id: Type.String({ description: 'The process (workflow) id' }) });
export const WorkflowParams = Type.Object({ workflow_id: Type.String({ description: 'The workflow id' }) });
export const RunParams = Type.Object({ workflow_id: Type.String({ description: 'The workflow id' }), run_id: Type.String({ description: 'The run id' }) });

/** The inputs of a hook call: a flat object, by parameter name or alias. */
export const HookBody = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The process inputs by name or alias (facts §7.1)' });

export const RunsQuery = Type.Object({
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  status: Type.Optional(Type.String({ description: 'Only runs of these statuses, comma-separated: queued, running, waiting, passed, refused, aborted, failed, or the public numbers 1 in progress, 2 passed, 3 or 6 aborted, 4 failed, 5 refused' })),
});

const Member = Type.Object({ accountId: Type.String(), fullname: Type.String(), avatar: Type.String() });

export const ProcessList = Type.Object({
  processes: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      alias: Type.String({ description: "The start node's alias" }),
      type: Type.Integer({ description: '6 webhook, 10 API process (packaged business process)' }),
      description: Type.String(),
      status: Type.Integer({ description: '1 on (published), 0 closed' }),
      _createdAt: Type.String(),
      _updatedAt: Type.String(),
      _owner: Member,
    }),
  ),
});

const Parameter = Type.Recursive((self) =>
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    alias: Type.Optional(Type.String()),
    type: Type.Integer({ description: 'A field code: 2 text, 6 number, 9 radio, 14 attachment, 16 date, 26 member, 27 department, 36 checkbox, 48 org role, 10000006 object, 10000007 array, 10000008 object array' }),
    description: Type.String(),
    required: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(Type.Object({ key: Type.String(), value: Type.String() }))),
    items: Type.Array(self),
  }),
);

export const ProcessDetail = Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), inputParameters: Type.Array(Parameter), outputParameters: Type.Array(Parameter) });

export const HookResult = Type.Record(Type.String(), Type.Unknown(), { description: "The run's outputs when it ended in time; else {runId}" });

const RunFields = {
  id: Type.String(),
  workflowId: Type.String(),
  version: Type.Integer(),
  status: Type.String({ description: 'queued, running, waiting, passed, refused, aborted, failed' }),
  instanceStatus: Type.Integer({ description: 'The public instance status: 1 in progress, 2 passed, 3 aborted, 4 failed, 5 refused' }),
  worksheetId: Type.Union([Type.String(), Type.Null()]),
  rowId: Type.Union([Type.String(), Type.Null()]),
  trigger: Type.Unknown({ description: 'What started it: {kind: worksheet|schedule|date_field|hook, …}' }),
  initiatorId: Type.String(),
  chainDepth: Type.Integer(),
  currentNode: Type.Union([Type.String(), Type.Null()], { description: 'The node it is at (waiting, or failed at)' }),
  outputs: Type.Unknown(),
  error: Type.Union([Type.String(), Type.Null()]),
  stepCount: Type.Integer(),
  startedAt: Type.String(),
  updatedAt: Type.String(),
  endedAt: Type.Union([Type.String(), Type.Null()]),
};

export const RunList = Type.Object({ runs: Type.Array(Type.Object(RunFields)), total: Type.Integer(), pageIndex: Type.Integer(), pageSize: Type.Integer() });

export const RunDetail = Type.Object({
  ...RunFields,
  steps: Type.Array(
    Type.Object({
      seq: Type.Integer(),
      nodeAlias: Type.String(),
      nodeType: Type.String(),
      status: Type.String({ description: 'done, waiting, failed' }),
      input: Type.Unknown(),
      output: Type.Unknown(),
      exit: Type.Union([Type.String(), Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()]),
      startedAt: Type.String(),
      endedAt: Type.Union([Type.String(), Type.Null()]),
      durationMs: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
});
