import { linkageOf } from '../../../fields/types/relation.js';
import type { ServiceContext } from '../../../shared/service-context.js';
import { loadAppLinks, loadSchema, type WorksheetSchema } from '../../worksheets/index.js';

/**
 * The worksheets a write to one worksheet can reach through relations (either direction, any
 * number of steps), with their schemas: what keeping computed values current may need to read and
 * update. Loaded before the write's transaction opens (schemas are not read inside it), from cached
 * schemas. A worksheet without relations is a world of one.
 */
export type World = Map<string, WorksheetSchema>;

export async function loadWorld(ctx: ServiceContext, schema: WorksheetSchema): Promise<World> {
  const world: World = new Map([[schema.id, schema]]);
  const links = await loadAppLinks(ctx, schema.appId);
  if (links.length === 0) return world;
  const neighbours = new Map<string, Set<string>>();
  const connect = (a: string, b: string) => {
    if (!neighbours.has(a)) neighbours.set(a, new Set());
    neighbours.get(a)!.add(b);
  };
  for (const field of links) {
    const { dataSource } = linkageOf(field);
    connect(field.worksheetId, dataSource);
    connect(dataSource, field.worksheetId);
  }
  const queue = [schema.id];
  while (queue.length > 0) {
    for (const next of neighbours.get(queue.shift()!) ?? []) {
      if (world.has(next)) continue;
      world.set(next, await loadSchema(ctx, next));
      queue.push(next);
    }
  }
  return world;
}
