import { seesPage } from '../../access/index.js';
import { AppError } from '../../shared/app-error.js';
import { newObjectId } from '../../shared/ids.js';
import type { ServiceContext } from '../../shared/service-context.js';
import { pivotRecords, planPivot, RECORD_COUNT, type PivotInput } from '../records/index.js';
import { viewForRead } from '../views/index.js';
import { loadSchema, type WorksheetSchema } from '../worksheets/index.js';
import * as repository from './repository.js';

/**
 * Charts of a worksheet: a saved question to the pivot engine (one dimension on the x axis, one or
 * more aggregated values, a filter), computed whenever it is read, so its data reflects every write.
 */

/** The report types of the public interface. */
const REPORT_TYPES = new Set([1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16]);
/** Types that show one number per value and take no x axis. */
const SINGLE_NUMBER = new Set([10, 14, 15]);
/** `normType` → the pivot's aggregation. */
const AGGREGATION: Record<number, string> = { 1: 'SUM', 2: 'MAX', 3: 'MIN', 4: 'AVG', 5: 'COUNT', 6: 'DISTINCTCOUNT' };

export interface ChartInput {
  name: string;
  reportType: number;
  xaxes?: { controlId: string; particleSizeType?: number } | Array<{ controlId: string; particleSizeType?: number }>;
  yaxisList: Array<{ controlId: string; normType?: number; controlName?: string }>;
  filter?: unknown;
  viewId?: string;
  pageId?: string;
}

/** What a chart keeps: its axes with field ids, its filter as given (checked when saved). */
interface ChartSpec {
  xaxes: { controlId: string; particleSizeType?: number } | null;
  yaxisList: Array<{ controlId: string; normType: number; controlName: string }>;
  filter: unknown;
  viewId: string;
}

function pivotInputOf(spec: ChartSpec): PivotInput {
  return {
    rows: spec.xaxes ? [{ field: spec.xaxes.controlId, ...(spec.xaxes.particleSizeType ? { granularity: spec.xaxes.particleSizeType } : {}) }] : [],
    values: spec.yaxisList.map((y) => ({ field: y.controlId, aggregation: AGGREGATION[y.normType] })),
    ...(spec.filter === undefined || spec.filter === null ? {} : { filter: spec.filter }),
    ...(spec.viewId ? { viewId: spec.viewId } : {}),
    pageSize: 1000,
  };
}

/** Resolves and checks a chart's request: field ids for aliases, aggregations the fields allow, a filter that compiles. */
function specOf(ctx: ServiceContext, schema: WorksheetSchema, input: ChartInput): ChartSpec {
  if (!REPORT_TYPES.has(input.reportType)) throw AppError.invalidValue(`reportType: ${input.reportType} is not a chart type (1 bar, 2 line, 3 pie, 5 radar, 6 funnel, 7 dual axis, 8 pivot table, 10 number, 11 bidirectional bar, 12 scatter, 13 word cloud, 14 gauge, 15 progress, 16 ranking)`);
  const x = Array.isArray(input.xaxes) ? input.xaxes[0] : input.xaxes;
  if (!x && !SINGLE_NUMBER.has(input.reportType)) throw AppError.invalidParameters(`xaxes: chart type ${input.reportType} needs an x axis field ({controlId})`);
  const xField = x ? schema.byKey.get(x.controlId) : undefined;
  if (x && !xField) throw AppError.invalidValue(`xaxes.controlId: no field "${x.controlId.slice(0, 80)}" in this worksheet`);
  const yaxisList = input.yaxisList.map((y, i) => {
    const isCount = y.controlId === RECORD_COUNT;
    const field = isCount ? undefined : schema.byKey.get(y.controlId);
    if (!isCount && !field) throw AppError.invalidValue(`yaxisList[${i}].controlId: no field "${y.controlId.slice(0, 80)}" in this worksheet`);
    const normType = y.normType ?? (isCount ? 5 : 1);
    return { controlId: field?.id ?? RECORD_COUNT, normType, controlName: y.controlName ?? field?.name ?? 'Record count' };
  });
  const spec: ChartSpec = { xaxes: x && xField ? { controlId: xField.id, ...(x.particleSizeType ? { particleSizeType: x.particleSizeType } : {}) } : null, yaxisList, filter: input.filter ?? null, viewId: input.viewId ?? '' };
  // Checked as the pivot will run it, naming the chart's own keys.
  planPivot(ctx, schema, pivotInputOf(spec), { rows: 'xaxes', columns: 'columns', values: 'yaxisList' });
  return spec;
}

export async function createChart(ctx: ServiceContext, worksheetKey: string, input: ChartInput): Promise<{ id: string }> {
  const schema = await loadSchema(ctx, worksheetKey);
  // A chart through a view counts the view's records (its filter ANDed with the chart's): 10007 for an unknown view.
  if (input.viewId) await viewForRead(ctx, schema, input.viewId);
  const spec = specOf(ctx, schema, input);
  if (input.pageId && !(await repository.pageExists(ctx.db, ctx.actor.appId, input.pageId))) throw AppError.invalidValue(`pageId: no custom page "${input.pageId.slice(0, 80)}" in this application`);
  const id = newObjectId();
  const now = ctx.now();
  await repository.insertChart(ctx.db, {
    id,
    app_id: ctx.actor.appId,
    worksheet_id: schema.id,
    name: input.name.trim(),
    report_type: input.reportType,
    spec: JSON.stringify(spec),
    page_id: input.pageId || null,
    created_by: ctx.actor.accountId,
    created_at: now,
    updated_at: now,
  });
  return { id };
}

/** A chart of the application; one on a custom page the caller may not see does not exist for them (10007). */
async function loadChart(ctx: ServiceContext, chartId: string) {
  const row = await repository.findChart(ctx.db, ctx.actor.appId, chartId);
  if (!row || (row.page_id !== null && !seesPage(ctx.actor, row.page_id))) throw AppError.notFound(`chart "${chartId.slice(0, 80)}" does not exist in this application`);
  return { row, spec: JSON.parse(row.spec) as ChartSpec };
}

export async function getChart(ctx: ServiceContext, chartId: string) {
  const { row, spec } = await loadChart(ctx, chartId);
  return {
    id: row.id,
    worksheetId: row.worksheet_id,
    name: row.name,
    reportType: row.report_type,
    xaxes: spec.xaxes,
    yaxisList: spec.yaxisList,
    filter: spec.filter,
    viewId: spec.viewId,
    pageId: row.page_id ?? '',
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

export async function deleteChart(ctx: ServiceContext, chartId: string): Promise<void> {
  if (!(await repository.deleteChart(ctx.db, ctx.actor.appId, chartId))) throw AppError.notFound(`chart "${chartId.slice(0, 80)}" does not exist in this application`);
}

/** A chart's numbers now: one point per group of the x axis (in the pivot's order), one value per series. */
export async function chartData(ctx: ServiceContext, chartId: string) {
  const { row, spec } = await loadChart(ctx, chartId);
  const schema = await loadSchema(ctx, row.worksheet_id);
  const pivot = await pivotRecords(ctx, schema.id, pivotInputOf(spec));
  const keys = pivot.meta.values.map((v) => v.field);
  const x = spec.xaxes;
  return {
    name: row.name,
    reportType: row.report_type,
    xaxis: x ? { controlId: x.controlId, name: schema.byKey.get(x.controlId)?.name ?? x.controlId } : null,
    series: spec.yaxisList.map((y) => ({ controlId: y.controlId, name: y.controlName, normType: y.normType })),
    points: pivot.pivot.map((group) => ({
      x: x ? (group.rows[x.controlId] ?? null) : null,
      values: keys.map((key) => {
        const value = group.values[key];
        return value === null || value === undefined ? null : Number(value);
      }),
    })),
  };
}
