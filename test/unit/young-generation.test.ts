import { describe, expect, it } from 'vitest';
import { processFlags } from '../../src/processes/young-generation.js';

describe('the Node flags of each server process', () => {
  it('divide the semi-space among the processes, in either spelling of the flag', () => {
    expect(processFlags(['--max-semi-space-size=64'], 2)).toEqual(['--max-semi-space-size=32']);
    expect(processFlags(['--enable-source-maps', '--max-semi-space-size', '96', '--trace-gc'], 3)).toEqual(['--enable-source-maps', '--max-semi-space-size=32', '--trace-gc']);
    expect(processFlags(['--max-semi-space-size=64'], 1)).toEqual(['--max-semi-space-size=64']);
  });

  it('never go below the 16 MB of V8\'s default', () => {
    expect(processFlags(['--max-semi-space-size=64'], 8)).toEqual(['--max-semi-space-size=16']);
  });

  it('add nothing when no semi-space was set, and leave a value they cannot read as it was', () => {
    expect(processFlags(['--enable-source-maps'], 2)).toEqual(['--enable-source-maps']);
    expect(processFlags([], 2)).toEqual([]);
    expect(processFlags(['--max-semi-space-size=lots'], 2)).toEqual(['--max-semi-space-size=lots']);
  });
});

it('keeps a semi-space set below 16 MB as it was: dividing never adds', () => {
  expect(processFlags(['--max-semi-space-size=8'], 2)).toEqual(['--max-semi-space-size=8']);
});
