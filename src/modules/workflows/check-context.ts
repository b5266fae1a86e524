import { AppError } from '../../shared/app-error.js';
import { ErrorCode } from '../../shared/error-codes.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { inputsOf, type NodeCheckContext } from '../../workflow/index.js';
import { currentVersion } from './drafts.js';
import { draftTriggerOf } from './presenter.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import * as repository from './repository.js';
import type { TriggerCheckContext } from './triggers/index.js';

/** What checks of a workflow ask about the application, each worksheet read once per check. */
export interface WorkflowLookups {
  trigger: TriggerCheckContext;
  /** A node's view of a worksheet: its id, name and field ids with their type codes. */
  nodeWorksheet: NodeCheckContext['worksheet'];
  /** A workflow of the application (a sub-process's): its name, trigger type, declared inputs and whether it is published. */
  nodeWorkflow: NonNullable<NodeCheckContext['workflow']>;
}

/**
 * Lookups for one check of a workflow, through the worksheets module (its schema cache, or inside a
 * transaction the transaction's own reads). A worksheet that does not exist, or is another
 * application's, is null: the check reports it where it is named.
 */
export function workflowLookups(ctx: ServiceContext): WorkflowLookups {
  const seen = new Map<string, Promise<WorksheetSchema | null>>();
  const worksheet = (key: string): Promise<WorksheetSchema | null> => {
    let found = seen.get(key);
    if (!found) {
      found = loadSchema(ctx, key).catch((error: unknown) => {
        if (error instanceof AppError && (error.code === ErrorCode.WorksheetNotFound || error.code === ErrorCode.WorksheetNotInApp)) return null;
        throw error;
      });
      seen.set(key, found);
    }
    return found;
  };
  return {
    trigger: {
      worksheet,
      filterScope: (schema) => ({ schema, dialect: ctx.dialect, now: ctx.now(), timeZone: ctx.timeZone, selfAccountId: ctx.actor.accountId }),
      timeZone: ctx.timeZone,
    },
    nodeWorkflow: async (id) => {
      const row = await repository.findWorkflow(ctx.db, ctx.actor.appId, id);
      if (!row) return null;
      // What a run would start: the published version; before the first publication, the draft
      // (a parent may be built while its child is, and the child published before it).
      const trigger = (await currentVersion(ctx.db, row))?.trigger ?? draftTriggerOf(row);
      return { id: row.id, name: row.name, triggerType: trigger.type, published: row.status === 'published', inputs: inputsOf(trigger) };
    },
    nodeWorksheet: async (key) => {
      const schema = await worksheet(key);
      return schema && { id: schema.id, name: schema.name, fields: new Map(schema.fields.map((f) => [f.id, f.type])) };
    },
  };
}
