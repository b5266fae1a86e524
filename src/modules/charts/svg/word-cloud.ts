import type { Drawing, Drawn } from './drawn.js';
import { frame, labelOf, PIXEL_DRAWN, WIDTH } from './drawn.js';

/**
 * Word cloud (13): the groups' labels sized by the first series. Vega's wordcloud transform measures
 * text on a canvas, which Node has only with the native `canvas` package (without it the transform
 * throws), so the words are laid out here: largest first, font size scaled linearly from 12 to 44 px,
 * wrapped into centred rows by an estimate of each word's width. The same data always gives the same picture.
 */

const SMALLEST = 12;
const LARGEST = 44;
const GAP = 12;
/** Average glyph width as a share of the font size (Vega's own estimate without a canvas is close to this). */
const GLYPH = 0.6;

interface Word { text: string; size: number; width: number }

function wordsOf(chart: Drawn): Word[] {
  const words = chart.points.map((point) => ({ text: labelOf(point.x), value: point.values[0] ?? 0 })).sort((a, b) => b.value - a.value);
  const low = Math.min(...words.map((w) => w.value));
  const high = Math.max(...words.map((w) => w.value));
  return words.map((w) => {
    const size = Math.round(high > low ? SMALLEST + ((LARGEST - SMALLEST) * (w.value - low)) / (high - low) : (SMALLEST + LARGEST) / 2);
    return { text: w.text, size, width: Math.min(WIDTH, w.text.length * size * GLYPH) };
  });
}

/** Fills rows left to right up to the width, then centres each row; a row is as tall as its largest word. */
function layout(words: Word[]): { placed: Array<Word & { px: number; py: number }>; height: number } {
  const rows: Word[][] = [];
  let used = Infinity;
  for (const word of words) {
    if (used + GAP + word.width > WIDTH) {
      rows.push([]);
      used = -GAP;
    }
    rows[rows.length - 1].push(word);
    used += GAP + word.width;
  }
  const placed: Array<Word & { px: number; py: number }> = [];
  let top = 0;
  for (const row of rows) {
    const tall = Math.max(...row.map((w) => w.size)) * 1.25;
    let left = (WIDTH - row.reduce((sum, w) => sum + w.width, 0) - GAP * (row.length - 1)) / 2;
    for (const word of row) {
      placed.push({ ...word, px: left + word.width / 2, py: top + tall / 2 });
      left += word.width + GAP;
    }
    top += tall;
  }
  return { placed, height: Math.max(40, Math.ceil(top)) };
}

export const wordCloud: Drawing = (chart) => {
  const { placed, height } = layout(wordsOf(chart));
  const pixel = (field: string) => ({ field, type: 'quantitative' as const, scale: null, axis: null });
  return {
    ...frame(chart, height),
    ...PIXEL_DRAWN,
    data: { values: placed },
    mark: { type: 'text', baseline: 'middle', align: 'center' },
    encoding: { x: pixel('px'), y: pixel('py'), text: { field: 'text' }, size: { field: 'size', type: 'quantitative', scale: null, legend: null }, color: { field: 'text', type: 'nominal', legend: null, sort: null } },
  };
};
