import type { Drawing } from './drawn.js';
import { frame, labelOf, numberText, roundAbove, totalOf, PIXEL_DRAWN, WIDTH } from './drawn.js';

/** The single-figure types: number (10), gauge (14), progress (15). */

/** Number: one figure per series, its total (one point without an x axis; with one, the groups summed). */
export const number: Drawing = (chart) => ({
  ...frame(chart, 80),
  data: { values: chart.series.map((s, k) => ({ series: s.name, value: totalOf(chart, k) })) },
  mark: { type: 'text', fontSize: 32 },
  encoding: { text: { field: 'value', type: 'quantitative', format: ',' }, y: { field: 'series', type: 'nominal', title: null } },
});

const GAUGE_HEIGHT = 220;
const RADIUS = 150;

/**
 * A half-circle gauge of the first series' total; its maximum is the second series' total when there
 * is one (a target), otherwise the round number at or above the value (so the arc is never simply full).
 */
export const gauge: Drawing = (chart) => {
  const value = totalOf(chart, 0);
  const target = chart.series.length > 1 ? totalOf(chart, 1) : 0;
  const max = target > 0 ? target : roundAbove(value);
  const share = Math.max(0, Math.min(1, value / max));
  const centre = { x: WIDTH / 2, y: GAUGE_HEIGHT - 30 };
  // Vega's angles start at 12 o'clock and run clockwise: the gauge runs from 9 to 3 o'clock.
  const arc = (theta2: number, color: string) => ({ mark: { type: 'arc' as const, ...centre, innerRadius: RADIUS * 0.7, outerRadius: RADIUS, theta: -Math.PI / 2, theta2, color } });
  const text = (text: string, dx: number, dy: number, fontSize: number) => ({ mark: { type: 'text' as const, x: centre.x + dx, y: centre.y + dy, text, fontSize } });
  return {
    ...frame(chart, GAUGE_HEIGHT),
    ...PIXEL_DRAWN,
    data: { values: [{}] },
    layer: [
      arc(Math.PI / 2, '#e5e7eb'),
      ...(share > 0 ? [arc(-Math.PI / 2 + Math.PI * share, '#4c78a8')] : []),
      text(numberText(value), 0, -20, 32),
      text(chart.series[0]?.name ?? '', 0, 10, 13),
      text('0', -RADIUS * 0.85, 16, 11),
      text(numberText(max), RADIUS * 0.85, 16, 11),
    ],
  };
};

/**
 * One bar per point (labelled with the series' name when there is no x axis) filled to value / target: the target is
 * the point's second series when there is one, otherwise the largest first-series value of the chart.
 */
export const progress: Drawing = (chart) => {
  const largest = Math.max(0, ...chart.points.map((point) => point.values[0] ?? 0));
  const rows = chart.points.map((point) => {
    const value = point.values[0] ?? 0;
    const target = chart.series.length > 1 ? (point.values[1] ?? 0) : largest;
    const share = target > 0 ? Math.max(0, value / target) : 0;
    return { label: chart.xaxis ? labelOf(point.x) : (chart.series[0]?.name ?? ''), full: 1, share: Math.min(1, share), text: `${Math.round(share * 100)}% · ${numberText(value)} / ${numberText(target)}` };
  });
  const y = { field: 'label', type: 'nominal' as const, title: null, sort: null };
  const x = { type: 'quantitative' as const, scale: { domain: [0, 1] }, axis: null };
  return {
    ...frame(chart, Math.max(40, rows.length * 40)),
    ...PIXEL_DRAWN,
    width: WIDTH - 140,
    data: { values: rows },
    layer: [
      { mark: { type: 'bar', color: '#e5e7eb', height: 18 }, encoding: { y, x: { field: 'full', ...x } } },
      { mark: { type: 'bar', color: '#4c78a8', height: 18 }, encoding: { y, x: { field: 'share', ...x } } },
      { mark: { type: 'text', align: 'left', dx: 8, fontSize: 14 }, encoding: { y, x: { field: 'full', ...x }, text: { field: 'text' } } },
    ],
  };
};
