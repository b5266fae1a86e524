import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { makeSheet, valueOf, type Sheet, type WireRecord } from '../helpers/record-fixtures.js';

/**
 * Two-way consistency under a few hundred random operations: link, unlink and move from either side
 * of a many-to-many and a many-to-one relation, delete, restore and purge records on both worksheets,
 * with writes that must fail (deleted, purged or unknown records; two records on a one-record side).
 * A model predicts every outcome; afterwards every record's value on both sides, and the link tables
 * themselves, are compared with it.
 */

const OPERATIONS = Number(process.env.RELATION_OPERATIONS ?? 300);
const SEED = Number(process.env.RELATION_SEED ?? 20261125);

/** A small seeded generator (mulberry32): the same operations on every run and engine. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, pick: <T,>(list: T[]): T => list[int(list.length)], some: <T,>(list: T[], most: number): T[] => [...new Set(Array.from({ length: int(most + 1) }, () => list[int(list.length)]))] };
}

type State = 'live' | 'deleted' | 'purged';

/** The expected world: records and their states, and the links of each relation as "order|customer" pairs in link order. */
class Model {
  state = new Map<string, State>();
  tags = new Set<string>(); // many-to-many: order.tags ↔ customer.tagged
  owner = new Set<string>(); // many-to-one: order.owner (one) ↔ customer.owned

  live(id: string) {
    return this.state.get(id) === 'live';
  }
  linksOf(set: Set<string>, side: 0 | 1, id: string): string[] {
    return [...set].map((pair) => pair.split('|')).filter((pair) => pair[side] === id).map((pair) => pair[1 - side]);
  }
  /** A write of ids from record `own` (side 0 = order, 1 = customer) in a mode; returns whether it succeeds. */
  write(set: Set<string>, side: 0 | 1, own: string, mode: 'replace' | 'add' | 'remove', ids: string[], ownHoldsOne: boolean, otherHoldsOne: boolean): boolean {
    if (!this.live(own)) return false;
    const before = this.linksOf(set, side, own);
    const after = mode === 'replace' ? ids : mode === 'add' ? [...before, ...ids.filter((id) => !before.includes(id))] : before.filter((id) => !ids.includes(id));
    if (ownHoldsOne && after.length > 1) return false;
    if (after.some((id) => !before.includes(id) && !this.live(id))) return false;
    const pair = (other: string) => (side === 0 ? `${own}|${other}` : `${other}|${own}`);
    for (const id of before) if (!after.includes(id)) set.delete(pair(id));
    for (const id of after) {
      if (before.includes(id)) continue;
      if (otherHoldsOne) for (const holder of this.linksOf(set, (1 - side) as 0 | 1, id)) set.delete(side === 0 ? `${holder}|${id}` : `${id}|${holder}`);
      set.add(pair(id));
    }
    return true;
  }
  purge(id: string) {
    this.state.set(id, 'purged');
    for (const set of [this.tags, this.owner]) for (const pair of [...set]) if (pair.split('|').includes(id)) set.delete(pair);
  }
}

describeApi('relations: both sides agree after random links, unlinks, deletes, restores and purges', (ctx) => {
  let orders: Sheet;
  let customers: Sheet;
  let tagged: string;
  let owned: string;
  const orderIds: string[] = [];
  const customerIds: string[] = [];
  const model = new Model();

  beforeAll(async () => {
    customers = await makeSheet(ctx, 'Customers', [{ name: 'Name', alias: 'title', type: '2', isTitle: true }]);
    orders = await makeSheet(ctx, 'Orders', [
      { name: 'Order', alias: 'title', type: '2', isTitle: true },
      { name: 'Tags', alias: 'tags', type: '29', subType: 2, dataSource: customers.id, relation: { bidirectional: true } },
      { name: 'Owner', alias: 'owner', type: '29', subType: 1, dataSource: customers.id, relation: { bidirectional: true } },
    ]);
    const reverse = (await ctx.call<{ fields: Array<{ id: string; name: string }> }>('GET', `/v3/app/worksheets/${customers.id}`)).body.data.fields;
    tagged = reverse.find((f) => f.name === 'Orders')!.id;
    owned = reverse.find((f) => f.name === 'Orders (Owner)')!.id;
    for (const [sheet, ids, prefix] of [[orders, orderIds, 'O'], [customers, customerIds, 'C']] as const) {
      const made = await ctx.call<{ rowIds: string[] }>('POST', `/v3/app/worksheets/${sheet.id}/rows/batch`, {
        rows: Array.from({ length: 8 }, (_, i) => ({ fields: [{ id: 'title', value: `${prefix}${i}` }] })),
      });
      ids.push(...made.body.data.rowIds);
      for (const id of made.body.data.rowIds) model.state.set(id, 'live');
    }
  });

  it(`applies ${OPERATIONS} random operations as the model predicts, then shows the same links on both sides`, async () => {
    const random = generator(SEED);
    const modes = ['replace', 'add', 'remove'] as const;
    const counts = { succeeded: 0, refused: 0 };
    for (let step = 0; step < OPERATIONS; step++) {
      const kind = random.int(10);
      const fromOrder = random.int(2) === 0;
      const sheet = fromOrder ? orders : customers;
      const own = random.pick(fromOrder ? orderIds : customerIds);
      const others = fromOrder ? customerIds : orderIds;
      let ok: boolean;
      let response: { body: { error_code: number; error_msg: string } };
      if (kind < 7) {
        const many = random.int(2) === 0;
        const mode = random.pick([...modes]);
        const ids = random.some(others, many ? 3 : 2);
        const field = fromOrder ? (many ? 'tags' : 'owner') : many ? tagged : owned;
        // The order side of Owner holds one customer: from the order it is "own holds one", from the customer "other holds one".
        ok = model.write(many ? model.tags : model.owner, fromOrder ? 0 : 1, own, mode, ids, !many && fromOrder, !many && !fromOrder);
        response = await ctx.call('PATCH', `/v3/app/worksheets/${sheet.id}/rows/${own}`, { fields: [{ id: field, value: ids, type: modes.indexOf(mode) }] });
      } else if (kind === 7) {
        ok = model.live(own);
        if (ok) model.state.set(own, 'deleted');
        response = await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${own}`);
      } else if (kind === 8) {
        ok = model.state.get(own) === 'deleted';
        if (ok) model.state.set(own, 'live');
        response = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/${own}/restore`);
      } else {
        // Purges are rarer: two in ten of the tenth kind.
        if (random.int(5) > 0) continue;
        ok = model.state.get(own) !== 'purged';
        if (ok) model.purge(own);
        response = await ctx.call('DELETE', `/v3/app/worksheets/${sheet.id}/rows/${own}`, { permanent: true });
      }
      expect({ step, succeeded: response.body.error_code === 1, message: response.body.error_msg }).toMatchObject({ step, succeeded: ok });
      counts[ok ? 'succeeded' : 'refused']++;
    }
    // Both kinds of outcome were exercised, so the comparison below is not of an empty world.
    expect(counts.succeeded).toBeGreaterThan(OPERATIONS / 4);
    expect(counts.refused).toBeGreaterThan(10);
    expect(model.tags.size + model.owner.size).toBeGreaterThan(0);

    const shown = async (sheet: Sheet, id: string, field: string) => {
      const got = await ctx.call<WireRecord>('GET', `/v3/app/worksheets/${sheet.id}/rows/${id}`);
      return (valueOf(got.body.data, field) as Array<{ sid: string }>).map((v) => v.sid).sort();
    };
    const expected = (set: Set<string>, side: 0 | 1, id: string) => model.linksOf(set, side, id).filter((other) => model.live(other)).sort();
    for (const id of orderIds.filter((o) => model.live(o))) {
      expect({ id, tags: await shown(orders, id, orders.field.tags) }).toEqual({ id, tags: expected(model.tags, 0, id) });
      expect({ id, owner: await shown(orders, id, orders.field.owner) }).toEqual({ id, owner: expected(model.owner, 0, id) });
    }
    for (const id of customerIds.filter((c) => model.live(c))) {
      expect({ id, tagged: await shown(customers, id, tagged) }).toEqual({ id, tagged: expected(model.tags, 1, id) });
      expect({ id, owned: await shown(customers, id, owned) }).toEqual({ id, owned: expected(model.owner, 1, id) });
    }
    // The link tables hold exactly the model's links, those of records in the recycle bin included.
    for (const [field, set] of [[orders.field.tags, model.tags], [orders.field.owner, model.owner]] as const) {
      const rows = (await ctx.database.db.selectFrom(`lk_${field}` as never).select(['source_id as s', 'target_id as t'] as never).execute()) as Array<{ s: string; t: string }>;
      expect(rows.map((r) => `${r.s}|${r.t}`).sort()).toEqual([...set].sort());
    }
  });
});
