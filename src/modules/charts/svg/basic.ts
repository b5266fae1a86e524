import type { Drawing } from './drawn.js';
import { frame, seriesColour, tidy } from './drawn.js';

/** Bar (1), line (2) and pie (3): what Vega-Lite draws as it is. Bars are the hot path (benchmark W13s): keep them lean. */

export const bar: Drawing = (chart) => ({
  ...frame(chart),
  data: { values: tidy(chart) },
  mark: 'bar',
  encoding: { x: { field: 'x', type: 'nominal', title: null, sort: null }, y: { field: 'value', type: 'quantitative', title: null }, ...seriesColour(chart), ...(chart.series.length > 1 ? { xOffset: { field: 'series' } } : {}) },
});

export const line: Drawing = (chart) => ({
  ...frame(chart),
  data: { values: tidy(chart) },
  mark: { type: 'line', point: true },
  encoding: { x: { field: 'x', type: 'nominal', title: null, sort: null }, y: { field: 'value', type: 'quantitative', title: null }, ...seriesColour(chart) },
});

export const pie: Drawing = (chart) => ({
  ...frame(chart),
  data: { values: tidy(chart) },
  mark: { type: 'arc' },
  encoding: { theta: { field: 'value', type: 'quantitative' }, color: { field: 'x', type: 'nominal', title: null } },
});
