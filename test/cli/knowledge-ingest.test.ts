import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connection.js';
import { HASHED_NGRAMS } from '../../src/knowledge/embedders/hashed-ngrams.js';
import { insertBase } from '../../src/modules/knowledge/repository.js';
import { describeEachEngine, type TestDatabase } from '../helpers/databases.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';

/** `tabularium knowledge ingest FILE… --kb ID`: the files become documents, ingested, with a summary (plain lines off a terminal). */

beforeAll(ensureBuilt, 180_000);

describeEachEngine('tabularium knowledge ingest', (engine) => {
  let testDatabase: TestDatabase;
  afterAll(async () => {
    await testDatabase?.drop();
  });

  it('ingests two files, printing their progress and a summary', async () => {
    testDatabase = await engine.create();
    const env = { DATABASE_URL: testDatabase.url, LOG_LEVEL: 'silent', FILES_DIR: await mkdtemp(join(tmpdir(), 'tabularium-files-')) };
    const setup = await runCli(['setup', '--json'], env);
    expect(setup.code).toBe(0);
    const { owner, app } = JSON.parse(setup.stdout) as { owner: { accountId: string }; app: { appId: string } };
    const dir = await mkdtemp(join(tmpdir(), 'tabularium-ingest-'));
    await writeFile(join(dir, 'guide.md'), '# Garden guide\n\n## Roses\n\nPrune the roses in late February.\n');
    await writeFile(join(dir, 'notes.txt'), 'The greenhouse key hangs by the door.');
    const database = openDatabase(testDatabase.url);
    try {
      const now = Date.now();
      await insertBase(database.db, { id: 'kb1', appId: app.appId, name: 'Garden', description: '', embedder: HASHED_NGRAMS, status: 'ready', error: null, createdBy: owner.accountId, createdAt: now, updatedAt: now });
      const result = await runCli(['knowledge', 'ingest', join(dir, 'guide.md'), join(dir, 'notes.txt'), '--kb', 'kb1'], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Garden guide: ready 1/1\n');
      expect(result.stdout).toContain('notes: ready 1/1\n');
      expect(result.stdout).toMatch(/2 of 2 documents ingested, 2 passages\n$/);
      const docs = await database.db.selectFrom('knowledge_documents').select(['title', 'status']).orderBy('created_at').orderBy('title').execute();
      expect(docs.map((d) => [d.title, d.status]).sort()).toEqual([
        ['Garden guide', 'ready'],
        ['notes', 'ready'],
      ]);
      expect(Number((await database.db.selectFrom('knowledge_passages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(2);

      // A file that cannot be a document is refused on stderr; the others are ingested; the exit code says so.
      await writeFile(join(dir, 'logo.bin'), Buffer.from([0x89, 0x50, 0, 0, 1]));
      await writeFile(join(dir, 'more.md'), '# Shed\n\nThe shed is painted green.\n');
      const mixed = await runCli(['knowledge', 'ingest', join(dir, 'logo.bin'), join(dir, 'more.md'), '--kb', 'kb1'], env);
      expect(mixed.code).toBe(1);
      expect(mixed.stderr).toBe('refused: "logo.bin" is not a text, Markdown, HTML or PDF document: its bytes are binary\n');
      expect(mixed.stdout).toContain('Shed: ready 1/1\n');
      expect(mixed.stdout).toMatch(/1 of 2 documents ingested, 1 passages\n1 refused \(see above\)\n$/);

      const missing = await runCli(['knowledge', 'ingest', join(dir, 'notes.txt'), '--kb', 'nope'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('knowledge base "nope" does not exist');
    } finally {
      await database.close();
    }
  }, 120_000);
});
