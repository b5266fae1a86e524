import { addKey, createAppWithKey } from '../../src/modules/setup/index.js';
import type { ApiContext } from '../helpers/api-harness.js';
import type { Sheet } from '../helpers/record-fixtures.js';
import { Ref, type PoolName } from './wire-value.js';

/**
 * The data the fuzzer works on, made before it starts:
 *
 * - the **fixture**: a worksheet of the first application with typed fields and five records. It
 *   must be exactly the same after the run. Its ids are used freely by reads and creates (a record
 *   created in the fixture worksheet is legitimate and does not touch the five), but never in the
 *   path of a request that may change or delete (see request-policy.ts);
 * - the **scratch** worksheet: the same fields and five records of its own, in the same application,
 *   which destructive requests may change and delete, so that updates and deletes reach real rows.
 *   It is made afresh when the fuzzer deleted it, and every `SCRATCH_REFRESH_RUNS` requests;
 * - the **second application** with its own key: requests on the application itself (`POST` and
 *   `DELETE /v3/app`) go there, because changing the name or deleting the application is
 *   legitimate and would otherwise change or delete the fixture. Its worksheet is the "foreign"
 *   one: the first app's key must not reach it, nor the second key the fixture. It is made afresh
 *   when a fuzzed `DELETE /v3/app` has deleted it;
 * - a read-only key of the first application, which must be refused every write.
 */

/** The fields of the fixture and scratch worksheets: text (title), number, single select, date, checkbox. */
const FIELDS = [
  // Not required: a fuzzed create would have to get the title right before anything else it sends is looked at.
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Amount', alias: 'amount', type: '6', precision: 2 },
  { name: 'Status', alias: 'status', type: '9', options: [{ value: 'Open', index: 1 }, { value: 'Paid', index: 2 }, { value: 'Late', index: 3 }] },
  { name: 'Due', alias: 'due', type: '15' },
  { name: 'Done', alias: 'done', type: '36' },
];

const RECORDS = [
  { title: 'ACME', amount: 129.5, status: 'Open', due: '2024-03-25', done: false },
  { title: 'Globex', amount: 0, status: 'Paid', due: '2023-12-31', done: true },
  { title: 'Initech', amount: -3.25, status: 'Late', due: '2025-01-01', done: false },
  { title: 'Umbrella', amount: 1e6, status: 'Open', due: '2000-02-29', done: true },
  { title: 'Hooli ünïcødé 表格', amount: 12.34, status: 'Paid', due: '1999-12-31', done: false },
];

/** How often the scratch worksheet is remade, in requests. */
const SCRATCH_REFRESH_RUNS = 150;

export type Credentials = 'own' | 'readOnly' | 'foreign' | 'none' | 'wrongSign';

interface Headers {
  [name: string]: string;
}

interface SecondApp {
  appId: string;
  headers: Headers;
  worksheetId: string;
  /** The columns of its `apps` row a request must never change. */
  row: { id: string; organization_id: string; owner_id: string; created_at: number };
}

export class FuzzWorld {
  fixture!: Sheet & { alias: string; records: string[] };
  scratch!: Sheet & { alias: string; records: string[] };
  second!: SecondApp;
  readOnlyHeaders!: Headers;
  private sections: string[] = [];
  private runsSinceScratch = 0;
  private scratchCount = 0;

  constructor(private readonly ctx: ApiContext) {}

  async setUp(): Promise<void> {
    const ctx = this.ctx;
    this.fixture = await this.makeWorksheet('Fuzz fixture', 'fuzzfixture');
    const app = await ctx.call<{ sections: Array<{ id: string }> }>('GET', '/v3/app');
    this.sections = app.body.data.sections.map((s) => s.id);
    this.scratch = await this.makeWorksheet('Fuzz scratch 0', 'fuzzscratch0');
    this.second = await this.makeSecondApp();
    const readOnly = await addKey(ctx.database.db, ctx.setup.app.appId, true, Date.now());
    this.readOnlyHeaders = this.headersOf(readOnly.appKey, readOnly.sign);
  }

  /** The real id a `Ref` stands for, as of now. */
  resolve(ref: Ref): string {
    const pool = this.pool(ref.pool);
    return pool[ref.index % pool.length];
  }

  private pool(name: PoolName): string[] {
    switch (name) {
      case 'fixtureWorksheet':
        return [this.fixture.id, this.fixture.alias];
      case 'fixtureRecord':
        return this.fixture.records;
      case 'scratchWorksheet':
        return [this.scratch.id, this.scratch.alias];
      case 'scratchRecord':
        return this.scratch.records;
      case 'foreignWorksheet':
        return [this.second.worksheetId];
      case 'field':
        // Both worksheets have the same aliases; the ids differ, so a fixture field id on the scratch worksheet is a foreign field.
        return [...Object.keys(this.fixture.field), ...Object.values(this.fixture.field), ...Object.values(this.scratch.field)];
      case 'option':
        return ['Open', 'Paid', 'Late', 'open', ' Open'];
      case 'section':
        return this.sections;
    }
  }

  /** The headers of a credentials choice; `appLevel` requests act on the second application (see above). */
  headersFor(credentials: Credentials, appLevel: boolean): Headers {
    const own = this.ctx.auth;
    switch (credentials) {
      case 'own':
        return appLevel ? this.second.headers : own;
      case 'readOnly':
        return this.readOnlyHeaders;
      case 'foreign':
        return this.second.headers;
      case 'none':
        return {};
      case 'wrongSign':
        return { ...own, [`${this.ctx.config.headerPrefix}-Sign`]: this.second.headers[`${this.ctx.config.headerPrefix}-Sign`] };
    }
  }

  /**
   * Keeps the world usable after a request: remakes the second application when a fuzzed
   * `DELETE /v3/app` deleted it, and the scratch worksheet when it was deleted and every so often
   * (its records get deleted and its fields changed).
   */
  async afterRequest(accepted: boolean): Promise<void> {
    const db = this.ctx.database.db;
    // Only an accepted write can have deleted anything.
    if (accepted) {
      const key = this.second.headers[`${this.ctx.config.headerPrefix}-Appkey`];
      if (!(await db.selectFrom('app_keys').select('id').where('app_key', '=', key).executeTakeFirst())) this.second = await this.makeSecondApp();
    }
    const scratchGone = accepted && !(await db.selectFrom('worksheets').select('id').where('id', '=', this.scratch.id).executeTakeFirst());
    if (scratchGone || ++this.runsSinceScratch >= SCRATCH_REFRESH_RUNS) {
      this.runsSinceScratch = 0;
      this.scratchCount += 1;
      this.scratch = await this.makeWorksheet(`Fuzz scratch ${this.scratchCount}`, `fuzzscratch${this.scratchCount}`);
    }
  }

  /**
   * What changed in the second application's row that no request may change (id, organization,
   * owner, creation time); null when nothing did, or when the application was deleted with its key.
   */
  async secondAppRowProblem(): Promise<string | null> {
    const row = await this.ctx.database.db
      .selectFrom('apps')
      .select(['id', 'organization_id', 'owner_id', 'created_at'])
      .where('id', '=', this.second.appId)
      .executeTakeFirst();
    const key = await this.ctx.database.db.selectFrom('app_keys').select('app_id').where('app_id', '=', this.second.appId).executeTakeFirst();
    if (!row && !key) return null;
    const now = row ? { ...row, created_at: Number(row.created_at) } : null;
    if (JSON.stringify(now) === JSON.stringify(this.second.row)) return null;
    const problem = `the second application's row changed: ${JSON.stringify(this.second.row)} → ${JSON.stringify(now)}`;
    // Reported once, by the request that made the change; later requests are judged against the new row.
    if (now) this.second.row = now;
    return problem;
  }

  private headersOf(appKey: string, sign: string): Headers {
    const prefix = this.ctx.config.headerPrefix;
    return { [`${prefix}-Appkey`]: appKey, [`${prefix}-Sign`]: sign };
  }

  /** A worksheet with the fixture's fields and records. */
  private async makeWorksheet(name: string, alias: string): Promise<Sheet & { alias: string; records: string[] }> {
    const call = this.ctx.call;
    const created = await call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name, alias, fields: FIELDS });
    if (created.body.error_code !== 1) throw new Error(`could not make the worksheet ${name}: ${created.body.error_msg}`);
    const id = created.body.data.worksheetId;
    const structure = await call<{ fields: Array<{ id: string; alias: string }> }>('GET', `/v3/app/worksheets/${id}`);
    const rows = RECORDS.map((record) => ({ fields: Object.entries(record).map(([field, value]) => ({ id: field, value })) }));
    const batch = await call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${id}/rows/batch`, { rows });
    if (batch.body.error_code !== 1) throw new Error(`could not fill the worksheet ${name}: ${batch.body.error_msg}`);
    return { id, alias, field: Object.fromEntries(structure.body.data.fields.map((f) => [f.alias, f.id])), records: batch.body.data.rowIds };
  }

  private async makeSecondApp(): Promise<SecondApp> {
    const created = await createAppWithKey(this.ctx.database.db, 'Fuzz second app', Date.now());
    const headers = this.headersOf(created.appKey, created.sign);
    // Its worksheet only has to exist: the first app's key must be refused it (430013). An empty one is made quickest.
    const sheet = await this.ctx.call<{ worksheetId: string }>('POST', '/v3/app/worksheets', { name: 'Foreign sheet', alias: 'foreign' }, headers);
    if (sheet.body.error_code !== 1) throw new Error(`could not make the second application's worksheet: ${sheet.body.error_msg}`);
    const row = await this.ctx.database.db
      .selectFrom('apps')
      .select(['id', 'organization_id', 'owner_id', 'created_at'])
      .where('id', '=', created.appId)
      .executeTakeFirstOrThrow();
    return { appId: created.appId, headers, worksheetId: sheet.body.data.worksheetId, row: { ...row, created_at: Number(row.created_at) } };
  }
}
