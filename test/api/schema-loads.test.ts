import { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { MetaSchema } from '../../src/db/schema.js';
import { loadSchema } from '../../src/modules/worksheets/index.js';
import { SchemaCache } from '../../src/shared/schema-cache.js';
import type { ServiceContext } from '../../src/shared/service-context.js';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet } from '../helpers/record-fixtures.js';
import { appKeyActor } from '../../src/access/index.js';

describeApi('worksheet schema loads', (ctx) => {
  it('requests that miss the cache together share one read of the schema', async () => {
    const sheet = await makeSheet(ctx, 'Shared load', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
    let fieldReads = 0;
    // The same database, through a query builder that counts the reads of field definitions.
    const db = new Kysely<MetaSchema>({
      dialect: ctx.database.dialect.kyselyDialect,
      log: (event) => {
        if (/from "fields"/i.test(event.query.sql)) fieldReads++;
      },
    });
    const service = {
      actor: appKeyActor({ keyId: 'k', appId: ctx.setup.app.appId, organizationId: ctx.setup.organizationId, readOnly: true }),
      db,
      dialect: ctx.database.dialect,
      reader: ctx.database.reader,
      now: Date.now,
      timeZone: 'UTC',
      log: ctx.app.log,
      schemas: new SchemaCache<unknown>(),
      indexes: ctx.app.indexes,
      files: ctx.app.files,
      recompute: { start: () => undefined, inlineMaxRows: 100_000 },
      draftLimit: 10,
      notificationMail: false,
      profile: 'spec',
    } as ServiceContext;
    const loaded = await Promise.all(Array.from({ length: 10 }, () => loadSchema(service, sheet.id)));
    expect(fieldReads).toBe(1);
    expect(new Set(loaded).size).toBe(1);
    expect(loaded[0].id).toBe(sheet.id);
  });
});
