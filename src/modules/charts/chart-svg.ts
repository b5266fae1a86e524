import type { TopLevelSpec } from 'vega-lite';
import { cellText } from '../records/index.js';

/**
 * A chart as an SVG picture, drawn on the server by Vega-Lite (no browser): bar (1), line (2), pie
 * (3), funnel (6) and ranking (16) as sorted bars, number (10), and every other type as bars (their
 * own drawings are not built yet; the data endpoint serves them all).
 */

interface Drawn {
  name: string;
  reportType: number;
  series: Array<{ name: string }>;
  points: Array<{ x: unknown; values: Array<number | null> }>;
}

const WIDTH = 480;
const HEIGHT = 300;

/** One row per point and series: the x label, the series name, the value. */
function tidy(chart: Drawn): Array<{ x: string; series: string; value: number }> {
  return chart.points.flatMap((point) => chart.series.map((s, i) => ({ x: point.x === null ? '(empty)' : cellText(point.x) || '(empty)', series: s.name, value: point.values[i] ?? 0 })));
}

function specOf(chart: Drawn): TopLevelSpec {
  const values = tidy(chart);
  const several = chart.series.length > 1;
  const base = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title: chart.name, width: WIDTH, height: HEIGHT, data: { values } } as const;
  const color = several ? { color: { field: 'series', type: 'nominal' as const, title: null } } : {};
  switch (chart.reportType) {
    case 3:
      return { ...base, mark: { type: 'arc' }, encoding: { theta: { field: 'value', type: 'quantitative' }, color: { field: 'x', type: 'nominal', title: null } } };
    case 2:
      return { ...base, mark: { type: 'line', point: true }, encoding: { x: { field: 'x', type: 'nominal', title: null, sort: null }, y: { field: 'value', type: 'quantitative', title: null }, ...color } };
    case 10:
    case 14:
    case 15:
      return { ...base, height: 80, mark: { type: 'text', fontSize: 32 }, encoding: { text: { field: 'value', type: 'quantitative', format: ',' }, y: { field: 'series', type: 'nominal', title: null } } };
    case 6:
    case 16:
      return { ...base, mark: 'bar', encoding: { y: { field: 'x', type: 'nominal', title: null, sort: '-x' }, x: { field: 'value', type: 'quantitative', title: null }, ...color } };
    default:
      return { ...base, mark: 'bar', encoding: { x: { field: 'x', type: 'nominal', title: null, sort: null }, y: { field: 'value', type: 'quantitative', title: null }, ...color, ...(several ? { xOffset: { field: 'series' } } : {}) } };
  }
}

/** Vega is loaded with the first picture (tens of megabytes a server that draws none need not hold). */
const drawing = { vega: null as Promise<[typeof import('vega'), typeof import('vega-lite')]> | null };

export async function chartSvg(chart: Drawn): Promise<string> {
  drawing.vega ??= Promise.all([import('vega'), import('vega-lite')]);
  const [{ parse, View }, { compile }] = await drawing.vega;
  const view = new View(parse(compile(specOf(chart)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
