import { expect, it } from 'vitest';
import { describeApi } from '../helpers/api-harness.js';
import { createRecord, makeSheet, type Sheet } from '../helpers/record-fixtures.js';
import { publishDirect, runsOf } from '../helpers/workflow-fixtures.js';
import { inTransaction } from '../../src/db/transaction.js';
import { planTimeTrigger, TriggerType } from '../../src/workflow/index.js';

/**
 * Date-field triggers with `repeat` (month, year) through the sweep job, in Berlin (TIME_ZONE):
 * each anniversary fires once, month ends clamped, at the local time on either side of the change
 * to summer time (29 March 2026).
 */

const START = 'start_r1';
const at = (iso: string) => Date.parse(iso);
const clock = { now: 0 };

describeApi(
  'workflow date-field triggers that repeat monthly or yearly',
  (ctx) => {
    let sheet: Sheet;
    const rows: Record<string, string> = {};
    const flows: Record<string, string> = {};

    const sweepNow = async (iso: string) => {
      clock.now = at(iso);
      await ctx.app.jobs.runUntilIdle();
    };
    const fired = async (flow: string) => (await runsOf(ctx, flows[flow])).map((r) => [r.row_id, (JSON.parse(r.trigger) as { firedAt: string }).firedAt, r.trigger_key === `date:${r.row_id}:${at((JSON.parse(r.trigger) as { firedAt: string }).firedAt)}`]);
    const dateTrigger = (dateFieldId: string, rest: Record<string, unknown>) => ({ type: TriggerType.dateField, alias: START, worksheetId: sheet.id, config: { worksheetId: sheet.id, dateFieldId, ...rest } });

    it('sets up records with old dates and four published date-field workflows', async () => {
      clock.now = at('2026-01-20T12:00:00.000Z');
      sheet = await makeSheet(ctx, 'Anniversaries', [
        { name: 'Title', alias: 'title', type: '2', isTitle: true, required: true },
        { name: 'Due', alias: 'due', type: '15' },
        { name: 'Born', alias: 'born', type: '15' },
        { name: 'Meeting', alias: 'meeting', type: '16' },
      ]);
      rows.monthEnd = await createRecord(ctx, sheet, [{ id: 'title', value: 'Month end' }, { id: 'due', value: '2020-01-31' }]);
      rows.leapDay = await createRecord(ctx, sheet, [{ id: 'title', value: 'Leap day' }, { id: 'born', value: '2020-02-29' }]);
      rows.old = await createRecord(ctx, sheet, [{ id: 'title', value: 'Old' }, { id: 'born', value: '1990-03-31' }]);
      // Decades before the others: the sweep skips the years between with one index seek.
      rows.ancient = await createRecord(ctx, sheet, [{ id: 'title', value: 'Ancient' }, { id: 'born', value: '1900-06-15' }]);
      rows.meeting = await createRecord(ctx, sheet, [{ id: 'title', value: 'Meeting' }, { id: 'meeting', value: '2025-12-15T08:00:00.000Z' }]);
      flows.monthly = await publishDirect(ctx, dateTrigger(sheet.field.due, { offset: { direction: 'on', amount: 0, unit: 'day' }, time: '09:00', repeat: 'month' }), [], clock.now);
      flows.yearly = await publishDirect(ctx, dateTrigger(sheet.field.born, { offset: { direction: 'before', amount: 1, unit: 'day' }, time: '09:00', repeat: 'year' }), [], clock.now);
      flows.meetings = await publishDirect(ctx, dateTrigger(sheet.field.meeting, { offset: { direction: 'before', amount: 30, unit: 'minute' }, repeat: 'month' }), [], clock.now);
      flows.once = await publishDirect(ctx, dateTrigger(sheet.field.due, { offset: { direction: 'on', amount: 0, unit: 'day' }, time: '09:00', repeat: 'none' }), [], clock.now);
      await inTransaction(ctx.database.db, async (trx) => {
        for (const id of Object.values(flows)) await planTimeTrigger(trx, id, clock.now, 'Europe/Berlin');
      });
      await sweepNow('2026-01-31T07:59:00.000Z');
      expect(await fired('monthly')).toEqual([]);
    });

    it('fires a month end on each month, clamped (31 January, 28 February, 31 March), at 09:00 local time in winter and in summer', async () => {
      await sweepNow('2026-01-31T08:00:00.000Z');
      expect(await fired('monthly')).toEqual([[rows.monthEnd, '2026-01-31T08:00:00.000Z', true]]);
      await sweepNow('2026-02-28T07:59:00.000Z');
      expect(await fired('monthly')).toHaveLength(1);
      await sweepNow('2026-02-28T08:00:00.000Z');
      await sweepNow('2026-03-31T06:59:00.000Z');
      expect((await fired('monthly')).map((r) => r[1])).toEqual(['2026-01-31T08:00:00.000Z', '2026-02-28T08:00:00.000Z']);
      await sweepNow('2026-03-31T07:00:00.000Z');
      expect(await fired('monthly')).toEqual([
        [rows.monthEnd, '2026-01-31T08:00:00.000Z', true],
        [rows.monthEnd, '2026-02-28T08:00:00.000Z', true],
        [rows.monthEnd, '2026-03-31T07:00:00.000Z', true],
      ]);
    });

    it('fires 29 February yearly the day before 28 February; a date of 1990 a day before its anniversary after the change to summer time', async () => {
      expect(await fired('yearly')).toEqual([
        [rows.leapDay, '2026-02-27T08:00:00.000Z', true],
        [rows.old, '2026-03-30T07:00:00.000Z', true],
      ]);
    });

    it('fires a date-time monthly at its local time, 30 minutes before, across the change of offset', async () => {
      await sweepNow('2026-04-15T06:29:00.000Z');
      await sweepNow('2026-04-15T06:30:00.000Z');
      expect(await fired('meetings')).toEqual([
        [rows.meeting, '2026-02-15T07:30:00.000Z', true],
        [rows.meeting, '2026-03-15T07:30:00.000Z', true],
        [rows.meeting, '2026-04-15T06:30:00.000Z', true],
      ]);
      // Without repeat, dates long past fire no more.
      expect(await fired('once')).toEqual([]);
    });

    it('sweeps a window again (redone after a crash) without a second run of any firing', async () => {
      await ctx.database.db.updateTable('workflow_time_triggers').set({ swept_until: at('2026-01-20T12:00:00.000Z') }).where('workflow_id', 'in', Object.values(flows)).execute();
      await sweepNow('2026-04-15T06:31:00.000Z');
      expect((await fired('monthly')).map((r) => r[1])).toEqual(['2026-01-31T08:00:00.000Z', '2026-02-28T08:00:00.000Z', '2026-03-31T07:00:00.000Z']);
      expect(await fired('yearly')).toHaveLength(2);
      expect(await fired('meetings')).toHaveLength(3);
      const runs = await ctx.database.db.selectFrom('workflow_runs').select(['status']).where('workflow_id', 'in', Object.values(flows)).execute();
      expect(runs.map((r) => r.status)).toEqual(Array(8).fill('passed'));
    });
  },
  { WORKERS: '0', TIME_ZONE: 'Europe/Berlin' },
  { clock: () => clock.now },
);
