import { expect } from 'vitest';
import type { ApiContext } from './api-harness.js';
import { createRecord, makeSheet, type Sheet } from './record-fixtures.js';

/** The fields of the share-link tests: text, a secret, a choice, a date-time, a check box, a member, files. */
export const SHARE_TEST_FIELDS = [
  { name: 'Title', alias: 'title', type: '2', isTitle: true },
  { name: 'Secret', alias: 'secret', type: '2' },
  { name: 'Status', alias: 'status', type: 'SingleSelect', options: [{ value: 'Open', index: 1 }, { value: 'Done', index: 2 }] },
  { name: 'Meeting', alias: 'meeting', type: 'DateTime' },
  { name: 'Paid', alias: 'paid', type: 'Checkbox' },
  { name: 'Owner', alias: 'owner', type: 'Collaborator', subType: 1 },
  { name: 'Files', alias: 'files', type: 'Attachment' },
  { name: 'Notes', alias: 'notes', type: '2' },
];

/** The bytes of the attached file the tests download through the share page. */
export const SHARED_FILE_TEXT = 'quarterly figures';

/** A worksheet of SHARE_TEST_FIELDS with one record holding a value in each (a `<script>` in Notes). */
export async function makeSharedRecord(ctx: ApiContext, name: string): Promise<{ sheet: Sheet; rowId: string }> {
  const sheet = await makeSheet(ctx, name, SHARE_TEST_FIELDS);
  const rowId = await createRecord(ctx, sheet, [
    { id: 'title', value: 'ACME order' },
    { id: 'secret', value: 'top secret margin' },
    { id: 'status', value: 'Done' },
    { id: 'meeting', value: '2024-03-05T06:30:00Z' },
    { id: 'paid', value: true },
    { id: 'owner', value: [ctx.setup.owner.accountId] },
    { id: 'files', value: [{ name: 'figures.txt', url: `data:text/plain;base64,${Buffer.from(SHARED_FILE_TEXT).toString('base64')}` }] },
    { id: 'notes', value: '<script>alert("owned")</script> & <b>bold</b>' },
  ]);
  return { sheet, rowId };
}

/** Makes a share link through the API (asserting success); `path` is the page's path, `token` its last segment. */
export async function shareRecord(ctx: ApiContext, sheet: Sheet, rowId: string, body: Record<string, unknown> = {}) {
  const made = await ctx.call<{ url: string; id: string; expiresAt: string | null }>('POST', `/v3/app/worksheets/${sheet.id}/rows/${rowId}/share-link`, body);
  expect(made.body.error_msg).toBe('');
  const url = new URL(made.body.data.url);
  return { ...made.body.data, path: url.pathname, token: url.pathname.split('/').pop()! };
}
