import { beforeAll, expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { personWithToken, giveRole, type TokenPerson } from '../helpers/people.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';

const START = Date.UTC(2026, 10, 25, 9, 0, 0);
let now = START;

interface Page {
  notifications: Array<{ id: string; kind: string; title: string; body: string; link: string; appId: string | null; read: boolean; readAt: string | null; createdAt: string }>;
  total: number;
  unread: number;
}

/** In-app notifications: made by mentions in discussions (and by to-dos, see the workflow tests), read and marked read by their person. */
describeApi(
  'notifications',
  (ctx) => {
    let ann: TokenPerson;
    let ben: TokenPerson;
    let sheet: Sheet;
    let rowId: string;

    beforeAll(async () => {
      now = START;
      ann = await personWithToken(ctx, 'Ann', START);
      ben = await personWithToken(ctx, 'Ben', START);
      await giveRole(ctx, 'Everyone', { permissionScope: 80 }, [ann.id, ben.id]);
      sheet = await makeSheet(ctx, 'Notes', [{ name: 'Title', alias: 'title', type: '2', isTitle: true }]);
      rowId = await createRecord(ctx, sheet, [{ id: 'title', value: 'Launch plan' }]);
    });

    const page = async (who: TokenPerson, query = '') => {
      const got = await ctx.call<Page>('GET', `/v3/notifications${query}`, undefined, who.headers);
      expect(got.body.error_msg).toBe('');
      return got.body.data;
    };
    const discuss = async (who: TokenPerson, body: Record<string, unknown>) => {
      now += 1000;
      const posted = await ctx.call('POST', `/v3/app/worksheets/${sheet.id}/rows/${rowId}/discussions`, body, who.headers);
      expect(posted.body.error_msg).toBe('');
    };

    it('notifies the members a discussion mentions (in its text or by id), never its author', async () => {
      await discuss(ann, { message: `@[Ben](${ben.id}) please review, and me too @[Ann](${ann.id})` });
      await discuss(ann, { message: 'second look', mentions: [{ accountId: ben.id }] });
      expect((await page(ann)).total).toBe(0);
      const bens = await page(ben);
      expect(bens).toMatchObject({ total: 2, unread: 2 });
      expect(bens.notifications.map((n) => [n.kind, n.body, n.read, n.createdAt])).toEqual([
        ['mention', 'second look', false, new Date(START + 2000).toISOString()],
        ['mention', `@[Ben](${ben.id}) please review, and me too @[Ann](${ann.id})`, false, new Date(START + 1000).toISOString()],
      ]);
      expect(bens.notifications[0]).toMatchObject({ title: 'You were mentioned in a discussion of "Notes"', link: `/v3/app/worksheets/${sheet.id}/rows/${rowId}/discussions`, appId: ctx.setup.app.appId, readAt: null });
    });

    it('marks some or all read; lists unread ones only on request', async () => {
      await discuss(ann, { message: 'third', mentions: [ben.id] });
      const before = await page(ben);
      expect(before.unread).toBe(3);
      const marked = await ctx.call<{ updated: number; unread: number }>('POST', '/v3/notifications/read', { ids: [before.notifications[0].id, 'not-mine'] }, ben.headers);
      expect(marked.body.data).toEqual({ updated: 1, unread: 2 });
      const unread = await page(ben, '?unreadOnly=true&pageSize=1');
      expect(unread).toMatchObject({ total: 2, unread: 2 });
      expect(unread.notifications).toHaveLength(1);
      expect((await page(ben, '?pageSize=1&pageIndex=1')).notifications[0]).toMatchObject({ read: true, readAt: new Date(now).toISOString() });
      // Ann cannot mark Ben's.
      expect((await ctx.call<{ updated: number }>('POST', '/v3/notifications/read', { ids: [unread.notifications[0].id] }, ann.headers)).body.data.updated).toBe(0);
      expect((await ctx.call('POST', '/v3/notifications/read', { all: true }, ben.headers)).body.data).toEqual({ updated: 2, unread: 0 });
    });

    it('refuses a mark-read without ids or all (10001), and app keys, which have no inbox (10005)', async () => {
      expect((await ctx.call('POST', '/v3/notifications/read', {}, ben.headers)).body).toMatchObject({ error_code: 10001, error_msg: 'ids or all is required: the notifications to mark read, or all: true' });
      expect((await ctx.call('GET', '/v3/notifications')).body).toMatchObject({ error_code: 10005, error_msg: expect.stringContaining('notifications belong to a person') });
      expect((await ctx.call('GET', '/api/v3/notifications', undefined, ben.headers)).body.success).toBe(true);
    });
  },
  {},
  { clock: () => now },
);
