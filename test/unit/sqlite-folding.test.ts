import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connection.js';

/**
 * The SQLite dialect decides case-insensitive matches of ASCII patterns natively and calls the
 * folding function only for texts holding a character that folds to ASCII. This checks that the
 * shortcut gives exactly the rows of the plain folded comparison, for every code point.
 */
describe('SQLite case-insensitive matching', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tabularium-folding-'));
  const database = openDatabase(`sqlite:${join(dir, 'fold.db')}`);
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const codePoints: string[] = [];
  for (let c = 1; c <= 0x10ffff; c += c < 0x3000 ? 1 : 97) if (c < 0xd800 || c > 0xdfff) codePoints.push(String.fromCodePoint(c));

  /** Texts whose fast and plain verdicts differ, over every code point in three positions. */
  async function mismatches(verdict: (text: ReturnType<typeof sql.ref>) => ReturnType<typeof sql>, reference: (text: ReturnType<typeof sql.ref>) => ReturnType<typeof sql>): Promise<string[]> {
    const found: string[] = [];
    for (let start = 0; start < codePoints.length; start += 5000) {
      const texts = codePoints.slice(start, start + 5000).flatMap((c) => [c, `x${c}y`, `K${c}`]);
      const rows = await sql<{ text: string }>`SELECT value AS text FROM json_each(${JSON.stringify(texts)}) WHERE (${verdict(sql.ref('value'))}) IS NOT (${reference(sql.ref('value'))})`.execute(database.db);
      found.push(...rows.rows.map((row) => row.text));
    }
    return found;
  }

  for (const pattern of ['%k%', '%I%', 'x_y', '%X%Y%', '_', 'k%', '%']) {
    it(`LIKE "${pattern}" matches exactly the folded texts`, async () => {
      const fast = (text: ReturnType<typeof sql.ref>) => database.dialect.likeFolded(text, pattern);
      const plain = (text: ReturnType<typeof sql.ref>) => sql`tab_fold(${text}) LIKE tab_fold(${pattern}) ESCAPE '\\'`;
      expect(await mismatches(fast, plain)).toEqual([]);
    });
  }

  for (const value of ['k', 'I', 'xky']) {
    it(`equality with "${value}" holds exactly for the folded texts`, async () => {
      const fast = (text: ReturnType<typeof sql.ref>) => database.dialect.equalsFolded(text, value);
      const plain = (text: ReturnType<typeof sql.ref>) => sql`tab_fold(${text}) = tab_fold(${value})`;
      expect(await mismatches(fast, plain)).toEqual([]);
    });
  }
});
