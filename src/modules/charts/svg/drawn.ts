import type { TopLevelSpec } from 'vega-lite';
import { cellText } from '../../records/index.js';

/** What every chart drawing starts from: a chart's data as `chartData` serves it. */

export interface Drawn {
  name: string;
  reportType: number;
  xaxis?: { name: string } | null;
  series: Array<{ name: string }>;
  points: Array<{ x: unknown; values: Array<number | null> }>;
}

/** Draws one family of chart types as a Vega-Lite spec. */
export type Drawing = (chart: Drawn) => TopLevelSpec;

export const WIDTH = 480;
export const HEIGHT = 300;
export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** The frame every drawing shares: schema, title, size. Vega escapes the title and every label it draws. */
export function frame(chart: Drawn, height = HEIGHT) {
  return { $schema: SCHEMA, title: chart.name, width: WIDTH, height } as const;
}

/**
 * For drawings laid out here in pixels rather than on axes: no frame around the plot, and no ARIA
 * labels on the marks (they would read out our pixel fields, "px: 70.8; py: 27.5").
 */
export const PIXEL_DRAWN = { config: { view: { stroke: null }, aria: false } } as const;

/** A group's label: its text, or "(empty)" for a group without a value (so it still has a place on the axis). */
export function labelOf(x: unknown): string {
  return x === null ? '(empty)' : cellText(x) || '(empty)';
}

/** One row per point and series: the x label, the series name, the value (a missing value drawn as 0). */
export function tidy(chart: Drawn): Array<{ x: string; series: string; value: number }> {
  return chart.points.flatMap((point) => chart.series.map((s, i) => ({ x: labelOf(point.x), series: s.name, value: point.values[i] ?? 0 })));
}

/** Colour by series only when there are several (one series needs no legend). */
export function seriesColour(chart: Drawn) {
  return chart.series.length > 1 ? { color: { field: 'series', type: 'nominal' as const, title: null } } : {};
}

/** The smallest round number (1, 2, 2.5 or 5 times a power of ten) at or above `value`; 1 for nothing. */
export function roundAbove(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 2.5, 5, 10].map((step) => step * power).find((round) => round >= value) ?? 10 * power);
}

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A number as drawn where we write the text ourselves (tables, figures): grouped, at most two decimals. */
export function numberText(value: number | null): string {
  return value === null ? '' : NUMBER.format(value);
}

/** A series' values summed over the points (single-figure charts have one point; with an x axis, all of them). */
export function totalOf(chart: Drawn, series: number): number {
  return chart.points.reduce((sum, point) => sum + (point.values[series] ?? 0), 0);
}
