import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { systemActor } from '../../access/index.js';
import { loadConfig } from '../../config/index.js';
import { contextOf } from '../../plugins/service-context.js';
import { startWorker } from '../../server.js';
import { addDocumentBytes } from '../../modules/knowledge/document-service.js';
import * as documents from '../../modules/knowledge/document-repository.js';
import * as repository from '../../modules/knowledge/repository.js';
import { refuseOversized } from '../../knowledge/documents/limits.js';
import { AppError } from '../../shared/app-error.js';

/**
 * `tabularium knowledge ingest FILE… --kb ID`: adds the files as documents of the knowledge base
 * (as its creator would, through the same service as `POST …/documents`), then runs the job queue
 * until nothing is due (as `tabularium worker --once` does: other due jobs run too), showing each
 * document's progress: bars on a terminal, a line per change of state otherwise. A file that cannot
 * be a document (over KNOWLEDGE_DOCUMENT_MAX_SIZE, binary, not a PDF though named one) is refused on
 * stderr and the others go on. Prints a summary and exits 1 when a document was refused or failed.
 */

const POLL_MS = 200;

type Doc = documents.KnowledgeDocument;

function line(doc: Doc): string {
  return `${doc.title}: ${doc.status} ${doc.progress}/${doc.chunkTotal}${doc.error ? ` (${doc.error})` : ''}`;
}

/** Shows the documents' state as it moves: bars on a terminal, plain lines otherwise. */
function progressView(tty: boolean) {
  const seen = new Map<string, string>();
  const bars = tty ? new cliProgress.MultiBar({ format: '{bar} {value}/{total} {title} ({status})', hideCursor: true, clearOnComplete: false }, cliProgress.Presets.shades_classic) : null;
  const barOf = new Map<string, cliProgress.SingleBar>();
  return {
    show(docs: Doc[]) {
      for (const doc of docs) {
        if (bars) {
          const bar = barOf.get(doc.id) ?? bars.create(Math.max(doc.chunkTotal, 1), 0, { title: doc.title, status: doc.status });
          barOf.set(doc.id, bar);
          bar.setTotal(Math.max(doc.chunkTotal, 1));
          bar.update(doc.status === 'ready' ? Math.max(doc.chunkTotal, 1) : doc.progress, { title: doc.title, status: doc.status });
          continue;
        }
        const text = line(doc);
        if (seen.get(doc.id) !== text) process.stdout.write(`${text}\n`);
        seen.set(doc.id, text);
      }
    },
    stop() {
      bars?.stop();
    },
  };
}

export function registerKnowledge(program: Command): void {
  const knowledge = program.command('knowledge').description('knowledge bases');
  knowledge
    .command('ingest')
    .description('add files (text, Markdown, HTML, PDF) as documents of a knowledge base and ingest them, with progress')
    .argument('<files...>', 'the files to add')
    .requiredOption('--kb <id>', 'the knowledge base')
    .action(async (files: string[], options: { kb: string }) => {
      const worker = await startWorker(loadConfig(), true);
      const { app } = worker;
      let failed: boolean;
      try {
        const db = app.database.db;
        const base = await repository.baseById(db, options.kb);
        if (!base) throw AppError.notFound(`knowledge base "${options.kb.slice(0, 80)}" does not exist`);
        const organizationId = await repository.organizationOfApp(db, base.appId);
        const ctx = contextOf(app, systemActor({ job: 'knowledge-ingest', appId: base.appId, organizationId, accountId: base.createdBy, writes: true }), app.log);
        const ids: string[] = [];
        let refused = 0;
        for (const file of files) {
          try {
            // A file over the limit is refused by its size, unread.
            refuseOversized(basename(file), (await stat(file)).size, app.config.knowledgeDocumentMaxBytes);
            const bytes = await readFile(file);
            ids.push((await addDocumentBytes(ctx, base.id, { bytes, name: basename(file), declaredType: null, originUrl: null })).documentId);
          } catch (error) {
            // A file that cannot be a document is skipped, said, and counted; the others go on.
            if (!(error instanceof AppError)) throw error;
            refused += 1;
            process.stderr.write(`refused: ${error.message}\n`);
          }
        }
        const view = progressView(process.stdout.isTTY === true);
        const current = async () => (await Promise.all(ids.map((id) => documents.documentById(db, id)))).filter((doc): doc is Doc => doc !== undefined);
        const timer = setInterval(() => void current().then(view.show, () => undefined), POLL_MS);
        try {
          await app.jobs.runUntilIdle();
        } finally {
          clearInterval(timer);
        }
        const done = await current();
        view.show(done);
        view.stop();
        const ready = done.filter((doc) => doc.status === 'ready');
        failed = ready.length < files.length;
        process.stdout.write(`${ready.length} of ${files.length} documents ingested, ${ready.reduce((n, doc) => n + doc.chunkTotal, 0)} passages\n`);
        for (const doc of done.filter((d) => d.status !== 'ready')) process.stdout.write(`failed: ${line(doc)}\n`);
        if (refused > 0) process.stdout.write(`${refused} refused (see above)\n`);
      } finally {
        await worker.close();
      }
      if (failed) process.exitCode = 1;
    });
}
