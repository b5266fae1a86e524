import { describe, expect, it } from 'vitest';
import { fullCollections } from '../../bench/gc-trace.js';

// W9b judges a leak on these figures: a parse that missed a line would let a growing heap through.
describe('bench: reading --trace-gc output', () => {
  it('takes the time and the heap kept after each full collection, and nothing from scavenges or other lines', () => {
    const log = [
      '[8483:0x36875d00]      571 ms: Mark-Compact 13.7 (27.7) -> 9.9 (29.5) MB, 8.24 / 0.31 ms  (+ 0.5 ms in 5 steps since start of marking)',
      '[8483:0x36875d00]     4108 ms: Scavenge 72.4 (90.2) -> 59.1 (91.7) MB, 3.30 / 0.01 ms  (average mu = 0.995) allocation failure;',
      '{"level":40,"msg":"a log line of the worker"}',
      '[8483:0x36875d00]     9803 ms: Mark-Compact (reduce) 162.5 (190.9) -> 38.3 (112.5) MB, 10.45 / 0.14 ms  (+ 13.4 ms in 94 steps)',
    ].join('\n');
    expect(fullCollections(log)).toEqual([
      { atMs: 571, liveMb: 9.9 },
      { atMs: 9803, liveMb: 38.3 },
    ]);
  });

  it('finds none in a log without collections', () => {
    expect(fullCollections('worker started\n')).toEqual([]);
  });
});
