import type { Drawing, Drawn } from './drawn.js';
import { bar } from './basic.js';
import { frame, HEIGHT, labelOf, SCHEMA, WIDTH } from './drawn.js';

/** Charts that set the first two series against each other (further series are not drawn): dual axis (7), bidirectional bar (11), scatter (12). */

/** One row per point: its label and the first two series (a missing value drawn as 0). */
function pairs(chart: Drawn) {
  return chart.points.map((point) => ({ label: labelOf(point.x), a: point.values[0] ?? 0, b: point.values[1] ?? 0 }));
}

/** Dual axis: the first series as bars on the left axis, the second as a line on its own right axis; one series is plain bars. */
export const dualAxis: Drawing = (chart) => {
  if (chart.series.length < 2) return bar(chart);
  const x = { field: 'label', type: 'nominal' as const, title: null, sort: null };
  return {
    ...frame(chart),
    data: { values: pairs(chart) },
    layer: [
      { mark: { type: 'bar' }, encoding: { x, y: { field: 'a', type: 'quantitative', title: chart.series[0].name, axis: { orient: 'left' } } } },
      { mark: { type: 'line', point: true, color: '#f58518' }, encoding: { x, y: { field: 'b', type: 'quantitative', title: chart.series[1].name, axis: { orient: 'right' } } } },
    ],
    resolve: { scale: { y: 'independent' } },
  };
};

/** Bidirectional: two horizontal bar charts back to back on the shared categories, the first series leftwards. */
export const bidirectional: Drawing = (chart) => {
  const values = pairs(chart);
  const half = (field: 'a' | 'b', k: number, reverse: boolean) => ({
    width: WIDTH / 2 - 40,
    height: HEIGHT,
    title: chart.series[k]?.name ?? '',
    mark: { type: 'bar' as const, color: k === 0 ? '#4c78a8' : '#f58518' },
    encoding: { y: { field: 'label', type: 'nominal' as const, sort: null, title: null, axis: reverse ? null : {} }, x: { field, type: 'quantitative' as const, title: null, scale: { reverse } } },
  });
  return { $schema: SCHEMA, title: { text: chart.name, anchor: 'middle' }, data: { values }, spacing: 4, hconcat: chart.series.length > 1 ? [half('a', 0, true), half('b', 1, false)] : [half('a', 0, false)] };
};

/**
 * Scatter: one point per group at (first series, second series), labelled with the group. With one
 * series there is nothing to pair, so each group is a point at its label against its value.
 */
export const scatter: Drawing = (chart) => {
  const values = pairs(chart);
  const label = { mark: { type: 'text' as const, align: 'left' as const, dx: 7, dy: -7 }, encoding: { text: { field: 'label' } } };
  if (chart.series.length < 2) {
    const encoding = { x: { field: 'label', type: 'nominal' as const, title: null, sort: null }, y: { field: 'a', type: 'quantitative' as const, title: chart.series[0]?.name ?? null } };
    return { ...frame(chart), data: { values }, mark: { type: 'point', filled: true, size: 80 }, encoding };
  }
  const encoding = { x: { field: 'a', type: 'quantitative' as const, title: chart.series[0].name }, y: { field: 'b', type: 'quantitative' as const, title: chart.series[1].name } };
  return { ...frame(chart), data: { values }, encoding, layer: [{ mark: { type: 'point', filled: true, size: 80 } }, label] };
};
