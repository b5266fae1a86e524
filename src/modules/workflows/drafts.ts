import type { Executor } from '../../db/connection.js';
import { administers, forbidden } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import type { ServiceContext } from '../../shared/service-context.js';
import type { NodeSpec, WorkflowDefinition } from '../../workflow/index.js';
import { nodeSpecOf } from './presenter.js';
import * as repository from './repository.js';
import type { WorkflowRow } from './repository.js';

/**
 * Workflows are the application's structure: administrators read and change them (an app key
 * administers its application; a read-only key reads). Route access refuses other writers; this
 * refuses other readers.
 */
export function requireWorkflowReader(ctx: ServiceContext): void {
  if (!administers(ctx.actor)) throw forbidden(ctx.actor, 'only an administrator of the application may read its workflows');
}

function notFound(id: string): AppError {
  return AppError.notFound(`workflow "${id.slice(0, 80)}" does not exist in this application`);
}

/** The workflow to read; 10007 when the application has none by this id (or it was deleted). */
export async function workflowToRead(ctx: ServiceContext, id: string): Promise<WorkflowRow> {
  requireWorkflowReader(ctx);
  const row = await repository.findWorkflow(ctx.db, ctx.actor.appId, id);
  if (!row) throw notFound(id);
  return row;
}

/** The workflow to change, locked until `trx` ends; 10007 when there is none. */
export async function workflowToEdit(ctx: ServiceContext, trx: Executor, id: string): Promise<WorkflowRow> {
  const row = await repository.claimWorkflow(trx, ctx.actor.appId, id);
  if (!row) throw notFound(id);
  return row;
}

export async function draftNodes(db: Executor, workflowId: string): Promise<NodeSpec[]> {
  return (await repository.loadNodes(db, workflowId)).map(nodeSpecOf);
}

/** A published version; 10007 naming it when the workflow has no such version. */
export async function publishedVersion(db: Executor, row: WorkflowRow, version: number): Promise<WorkflowDefinition> {
  const definition = await repository.findVersion(db, row.id, version);
  if (!definition) {
    const last = Number(row.published_version);
    throw AppError.notFound(`version: the workflow has no published version ${version}${last > 0 ? ` (versions 1 to ${last})` : ' (it was never published)'}`);
  }
  return JSON.parse(definition) as WorkflowDefinition;
}

/** The published version the workflow runs, or null before its first publication. */
export async function currentVersion(db: Executor, row: WorkflowRow): Promise<WorkflowDefinition | null> {
  return Number(row.published_version) > 0 ? publishedVersion(db, row, Number(row.published_version)) : null;
}

/** A context whose reads (worksheet schemas for checks) go through the transaction. */
export function within(ctx: ServiceContext, trx: Executor): ServiceContext {
  return { ...ctx, db: trx };
}
