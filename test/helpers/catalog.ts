import { sql } from 'kysely';
import type { ApiContext } from './api-harness.js';

/** Whether the engine's catalog holds an index of this name (tests compare engines by name here only). */
export async function indexExists(ctx: ApiContext, name: string): Promise<boolean> {
  const catalog =
    ctx.engine === 'sqlite'
      ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND name = ${name}`
      : sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE indexname = ${name}`;
  return (await catalog.execute(ctx.database.db)).rows.length === 1;
}
