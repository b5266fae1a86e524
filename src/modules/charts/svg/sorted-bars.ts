import type { Drawing, Drawn } from './drawn.js';
import { frame, labelOf, numberText, PIXEL_DRAWN } from './drawn.js';

/** Funnel (6) and ranking (16): the first series' groups ordered by value, largest first. */

function byValue(chart: Drawn) {
  return chart.points.map((point) => ({ label: labelOf(point.x), value: point.values[0] ?? 0 })).sort((a, b) => b.value - a.value);
}

/** A funnel: each bar centred on 0 (from -value/2 to value/2), widest at the top, its value beside it. */
export const funnel: Drawing = (chart) => {
  const rows = byValue(chart).map((row) => ({ ...row, lo: -row.value / 2, hi: row.value / 2, text: numberText(row.value) }));
  const y = { field: 'label', type: 'nominal' as const, title: null, sort: null, axis: { domain: false, ticks: false } };
  return {
    ...frame(chart),
    ...PIXEL_DRAWN,
    data: { values: rows },
    layer: [
      { mark: { type: 'bar' }, encoding: { y, x: { field: 'lo', type: 'quantitative', axis: null }, x2: { field: 'hi' } } },
      { mark: { type: 'text', align: 'left', dx: 4 }, encoding: { y, x: { field: 'hi', type: 'quantitative', axis: null }, text: { field: 'text' } } },
    ],
  };
};

/** A ranking: horizontal bars, largest first, each label led by its rank ("1. North"); ties rank in data order. */
export const ranking: Drawing = (chart) => ({
  ...frame(chart),
  data: { values: byValue(chart).map((row, i) => ({ ...row, label: `${i + 1}. ${row.label}` })) },
  mark: 'bar',
  encoding: { y: { field: 'label', type: 'nominal', title: null, sort: null }, x: { field: 'value', type: 'quantitative', title: chart.series[0]?.name ?? null } },
});
