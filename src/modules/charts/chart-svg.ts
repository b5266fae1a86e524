import { bar, line, pie } from './svg/basic.js';
import type { Drawing, Drawn } from './svg/drawn.js';
import { gauge, number, progress } from './svg/figures.js';
import { radar } from './svg/radar.js';
import { funnel, ranking } from './svg/sorted-bars.js';
import { pivotTable } from './svg/table.js';
import { bidirectional, dualAxis, scatter } from './svg/two-series.js';
import { wordCloud } from './svg/word-cloud.js';

/**
 * A chart as an SVG picture, drawn on the server by Vega-Lite (no browser): each report type by its
 * own drawing under svg/ (see docs/api.md "Charts" for how each looks). Vega draws every label, so
 * escaping is its job; no SVG is written by hand.
 */

const DRAWINGS: Record<number, Drawing> = {
  1: bar,
  2: line,
  3: pie,
  5: radar,
  6: funnel,
  7: dualAxis,
  8: pivotTable,
  10: number,
  11: bidirectional,
  12: scatter,
  13: wordCloud,
  14: gauge,
  15: progress,
  16: ranking,
};

/** Vega is loaded with the first picture (tens of megabytes a server that draws none need not hold). */
const drawing = { vega: null as Promise<[typeof import('vega'), typeof import('vega-lite')]> | null };

export async function chartSvg(chart: Drawn): Promise<string> {
  drawing.vega ??= Promise.all([import('vega'), import('vega-lite')]);
  const [{ parse, View }, { compile }] = await drawing.vega;
  // A type saved before it had a drawing of its own (none today) still draws, as bars.
  const spec = (DRAWINGS[chart.reportType] ?? bar)(chart);
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
