import type { Drawing } from './drawn.js';
import { frame, HEIGHT, labelOf, numberText, roundAbove, PIXEL_DRAWN, WIDTH } from './drawn.js';

/**
 * Radar (5): Vega-Lite has no polar axes, so the polar coordinates are computed here into pixels: one
 * spoke and one label per x category around a circle, one closed polygon per series, the radius
 * scaled to the round number at or above the largest value.
 */

const CENTRE = { x: WIDTH / 2, y: HEIGHT / 2 };
const RADIUS = HEIGHT / 2 - 30;

/** The pixel at `share` of the radius on the spoke of category `i` of `n`, starting at 12 o'clock. */
function at(i: number, n: number, share: number): { px: number; py: number } {
  const angle = (2 * Math.PI * i) / n - Math.PI / 2;
  return { px: CENTRE.x + RADIUS * share * Math.cos(angle), py: CENTRE.y + RADIUS * share * Math.sin(angle) };
}

export const radar: Drawing = (chart) => {
  const n = chart.points.length;
  const max = roundAbove(Math.max(0, ...chart.points.flatMap((point) => point.values.map((v) => v ?? 0))));
  const spokes = chart.points.map((point, i) => {
    const end = at(i, n, 1);
    const label = at(i, n, 1.12);
    const side = Math.cos((2 * Math.PI * i) / n - Math.PI / 2);
    return { ...end, px0: CENTRE.x, py0: CENTRE.y, lx: label.px, ly: label.py, label: labelOf(point.x), align: Math.abs(side) < 0.1 ? 'center' : side > 0 ? 'left' : 'right' };
  });
  // Two grid rings, at half and all of the maximum, which is written at the top of the outer one.
  const rings = [0.5, 1].flatMap((share) => chart.points.map((_, i) => ({ ...at(i, n, share), i, share })));
  const top = { ...at(0, 1, 1), text: numberText(max) };
  const polygons = chart.series.flatMap((s, k) => chart.points.map((point, i) => ({ series: s.name, i, ...at(i, n, Math.max(0, point.values[k] ?? 0) / max) })));
  const pixel = (field: string) => ({ field, type: 'quantitative' as const, scale: null, axis: null });
  return {
    ...frame(chart),
    ...PIXEL_DRAWN,
    layer: [
      { data: { values: spokes }, mark: { type: 'rule', color: '#d1d5db' }, encoding: { x: pixel('px0'), y: pixel('py0'), x2: { field: 'px' }, y2: { field: 'py' } } },
      { data: { values: rings }, mark: { type: 'line', interpolate: 'linear-closed', color: '#d1d5db' }, encoding: { x: pixel('px'), y: pixel('py'), order: { field: 'i' }, detail: { field: 'share' } } },
      ...(n > 0 ? [{ data: { values: [top] }, mark: { type: 'text' as const, align: 'left' as const, dx: 4, dy: 8, fontSize: 9, color: '#6b7280' }, encoding: { x: pixel('px'), y: pixel('py'), text: { field: 'text' } } }] : []),
      // Vega-Lite has no align channel: one layer of labels per side of the circle.
      ...(['left', 'center', 'right'] as const).map((align) => ({ data: { values: spokes.filter((s) => s.align === align) }, mark: { type: 'text' as const, baseline: 'middle' as const, align }, encoding: { x: pixel('lx'), y: pixel('ly'), text: { field: 'label' } } })),
      {
        data: { values: polygons },
        mark: { type: 'line', interpolate: 'linear-closed', point: true, strokeWidth: 2 },
        encoding: { x: pixel('px'), y: pixel('py'), order: { field: 'i' }, color: { field: 'series', type: 'nominal', title: null, sort: null, ...(chart.series.length > 1 ? {} : { legend: null }) } },
      },
    ],
  };
};
