import type { Executor } from '../db/connection.js';
import { changeEpoch } from '../shared/change-notices.js';
import { SchemaCache } from '../shared/schema-cache.js';
import { TriggerType, type WorkflowDefinition, type WorksheetTriggerConfig } from './definition.js';

/** A published workflow listening to a worksheet's events. */
export interface WorksheetListener {
  workflowId: string;
  appId: string;
  version: number;
  trigger: WorksheetTriggerConfig;
}

const cache = new SchemaCache<WorksheetListener[]>();

/**
 * The published workflows a worksheet's record writes trigger, read once per worksheet and kept for
 * 5 seconds (as worksheet schemas are), so that a write to a worksheet nothing listens to costs no
 * query. Publishing or closing a workflow forgets the worksheet at once in this process and, through
 * a change notice, in the server's other processes; processes that share only a PostgreSQL database
 * see it within 5 seconds. `workflows.trigger_worksheet_id` is the worksheet of the
 * published version's trigger (set when publishing).
 */
export async function worksheetListeners(db: Executor, worksheetId: string): Promise<WorksheetListener[]> {
  const cached = cache.get(worksheetId);
  if (cached) return cached;
  const readSince = changeEpoch();
  const rows = await db
    .selectFrom('workflows as w')
    .innerJoin('workflow_versions as v', (join) => join.onRef('v.workflow_id', '=', 'w.id').onRef('v.version', '=', 'w.published_version'))
    .select(['w.id', 'w.app_id', 'v.version', 'v.definition'])
    .where('w.trigger_worksheet_id', '=', worksheetId)
    .where('w.status', '=', 'published')
    .execute();
  const listeners = rows
    .map((row) => ({ row, definition: JSON.parse(row.definition) as WorkflowDefinition }))
    .filter(({ definition }) => definition.trigger.type === TriggerType.worksheet)
    .map(({ row, definition }) => ({ workflowId: row.id, appId: row.app_id, version: Number(row.version), trigger: definition.trigger.config as unknown as WorksheetTriggerConfig }));
  cache.set(worksheetId, listeners, readSince);
  return listeners;
}

/** Forgets what listens to a worksheet (after a workflow on it is published, closed or deleted). */
export function forgetWorksheetListeners(worksheetId: string): void {
  cache.delete(worksheetId);
}
