import type { Drawing } from './drawn.js';
import { frame, labelOf, numberText, PIXEL_DRAWN, WIDTH } from './drawn.js';

/**
 * Pivot table (8): a table drawn with text marks at computed pixel positions: a bold header row (the x
 * axis's name, then the series' names), one row per point; labels left-aligned, numbers right-aligned.
 */

const ROW = 26;

export const pivotTable: Drawing = (chart) => {
  const columns = [chart.xaxis?.name ?? '', ...chart.series.map((s) => s.name)];
  // The labels' column takes 40% (all of it without series); the numbers share the rest.
  const first = columns.length > 1 ? WIDTH * 0.4 : WIDTH;
  const width = (WIDTH - first) / Math.max(1, columns.length - 1);
  const cell = (row: number, column: number, text: string) => ({ row, text, bold: row === 0, px: column === 0 ? 6 : first + column * width - 6, py: row * ROW + ROW / 2, align: column === 0 ? 'left' : 'right' });
  const cells = [
    ...columns.map((name, column) => cell(0, column, name)),
    ...chart.points.flatMap((point, i) => [cell(i + 1, 0, labelOf(point.x)), ...chart.series.map((_, k) => cell(i + 1, k + 1, numberText(point.values[k] ?? null)))]),
  ];
  const lines = Array.from({ length: chart.points.length + 1 }, (_, i) => ({ py: (i + 1) * ROW, heavy: i === 0 }));
  const pixel = (field: string) => ({ field, type: 'quantitative' as const, scale: null, axis: null });
  const text = (values: typeof cells, align: 'left' | 'right', fontWeight: 'bold' | 'normal') => ({ data: { values }, mark: { type: 'text' as const, baseline: 'middle' as const, align, fontWeight, limit: (align === 'left' ? first : width) - 12 }, encoding: { x: pixel('px'), y: pixel('py'), text: { field: 'text' } } });
  return {
    ...frame(chart, (chart.points.length + 1) * ROW),
    ...PIXEL_DRAWN,
    layer: [
      { data: { values: lines }, mark: { type: 'rule', x: 0, x2: WIDTH }, encoding: { y: pixel('py'), color: { condition: { test: 'datum.heavy', value: '#6b7280' }, value: '#e5e7eb' } } },
      // Vega-Lite has no align or weight channel: one layer per kind of cell.
      ...[true, false].flatMap((bold) => (['left', 'right'] as const).map((align) => text(cells.filter((c) => c.bold === bold && c.align === align), align, bold ? 'bold' : 'normal'))),
    ],
  };
};
