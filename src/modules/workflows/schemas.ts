import { Type } from '@sinclair/typebox';
import { LenientBoolean } from '../../shared/wire-schemas.js';
import { MAX_NODES_PER_BATCH } from './nodes.js';

/** Wire schemas of the workflow definition endpoints; see docs/api.md "Workflows". */

export const WorkflowParams = Type.Object({ workflow_id: Type.String({ description: 'The workflow (process) id' }) });
export const NodeParams = Type.Object({ workflow_id: Type.String(), node_id: Type.String({ description: 'A node id (or alias)' }) });

const TriggerIn = Type.Unknown({
  description:
    '{type, config}: type 1 worksheet, 5 schedule, 6 date_field, 7 webhook, 17 api (number or name). Config per type: worksheet {worksheetId, event create|update|create_or_update|delete, triggerFields?, filter?}; schedule {cron, timeZone?} or {repeat, interval, weekDays?, startTime, endTime?, timeZone?}; date_field {worksheetId, dateFieldId, offset {direction before|after|on, amount, unit}, time?, repeat?}; webhook {sample?} or {params}; api {inputs, outputs}',
});

const WorkflowInfo = {
  description: Type.Optional(Type.String({ description: 'Default ""' })),
  trigger: Type.Optional(TriggerIn),
  triggerType: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'The public flat form of trigger.type' })),
  triggerConfig: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'With triggerType: the trigger config' })),
};

export const CreateWorkflowBody = Type.Object({ name: Type.String({ description: 'At most 100 characters' }), ...WorkflowInfo }, { additionalProperties: true });
export const UpdateWorkflowBody = Type.Object({ name: Type.Optional(Type.String()), ...WorkflowInfo }, { additionalProperties: true });

export const GetWorkflowQuery = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1, description: 'A published version to show instead of the draft' })) });

export const ListWorkflowsQuery = Type.Object({
  triggerType: Type.Optional(Type.Union([Type.Integer(), Type.String()], { description: 'Only workflows with this trigger type (number or name)' })),
  published: Type.Optional(LenientBoolean({ description: 'true: only published (on) workflows; false: only drafts and closed ones' })),
  pageIndex: Type.Optional(Type.Integer({ minimum: 1, description: 'Default 1' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 100' })),
});

const NodeIn = Type.Object(
  {
    nodeAlias: Type.Optional(Type.Unknown({ description: 'snake_case, unique in the workflow; not trigger, sub_trigger, approval_trigger, approval_start' })),
    nodeType: Type.Optional(Type.Unknown({ description: 'A node type name, e.g. update_record, branch' })),
    prevNode: Type.Optional(Type.Unknown({ description: 'The node it follows: an alias or id, {nodeAlias} or {nodeId}; none or the trigger alias: first of its sequence' })),
    parentNode: Type.Optional(Type.Unknown({ description: 'The branch path alias (or approval block) it sits in; none: the sequence of prevNode' })),
    name: Type.Optional(Type.Unknown()),
    description: Type.Optional(Type.Unknown()),
    config: Type.Optional(Type.Unknown({ description: "Checked against the node type's schema and its rules" })),
  },
  { additionalProperties: true },
);

export const NodesBatchBody = Type.Object({ nodes: Type.Array(NodeIn, { maxItems: MAX_NODES_PER_BATCH }) });
export const DeleteNodesBody = Type.Object({ nodeIds: Type.Array(Type.String(), { description: 'Node ids (or aliases)' }) });

const NodeOut = Type.Object({
  id: Type.String(),
  nodeAlias: Type.String(),
  nodeType: Type.String(),
  typeId: Type.Union([Type.Integer(), Type.Null()], { description: 'The public internal node type id' }),
  name: Type.String(),
  description: Type.String(),
  prevNode: Type.Union([Type.String(), Type.Null()]),
  parentNode: Type.Union([Type.String(), Type.Null()]),
  config: Type.Unknown(),
});

const Status = Type.String({ description: 'draft (never published), published, closed' });

export const WorkflowOut = Type.Object({
  id: Type.String(),
  processId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  trigger: Type.Object({ type: Type.Integer(), alias: Type.String(), config: Type.Unknown() }),
  triggerType: Type.Integer(),
  triggerAlias: Type.String(),
  published: Type.Boolean(),
  status: Status,
  version: Type.Integer({ description: 'The published version (0: never published); with ?version the one shown' }),
  draftVersion: Type.Integer({ description: 'The version the draft becomes when published' }),
  hasUnpublishedChanges: Type.Boolean(),
  ownerId: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  nodes: Type.Array(NodeOut),
});

export const WorkflowListOut = Type.Object({
  workflows: Type.Array(
    Type.Object({
      id: Type.String(),
      processId: Type.String(),
      name: Type.String(),
      description: Type.String(),
      triggerType: Type.Integer(),
      triggerAlias: Type.String(),
      worksheetId: Type.Union([Type.String(), Type.Null()]),
      published: Type.Boolean(),
      status: Status,
      version: Type.Integer(),
      draftVersion: Type.Integer(),
      ownerId: Type.String(),
      createdAt: Type.String(),
      updatedAt: Type.String(),
    }),
  ),
  total: Type.Integer(),
  pageIndex: Type.Integer(),
  pageSize: Type.Integer(),
});

export const CreatedWorkflow = Type.Object({ id: Type.String(), processId: Type.String(), triggerAlias: Type.String() });
export const CreatedNodes = Type.Object({ createdNodes: Type.Array(Type.Object({ id: Type.String(), nodeAlias: Type.String(), nodeType: Type.String() })) });
export const DeletedNodes = Type.Object({ deletedNodes: Type.Array(Type.Object({ id: Type.String(), nodeAlias: Type.String() })) });
export const Validation = Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(Type.Object({ nodeAlias: Type.String(), path: Type.String(), message: Type.String() })),
});
export const Published = Type.Object({ version: Type.Integer(), published: Type.Boolean() });
export const Closed = Type.Object({ status: Type.String(), published: Type.Boolean() });
export const Nothing = Type.Null();
