import { describe, expect, it } from 'vitest';
import { WorkflowGraph, type NodeSpec } from '../../../src/workflow/graph.js';

function node(alias: string, prev: string | null, parent: string | null = null, type = 'update_record'): NodeSpec {
  return { id: `id-${alias}`, alias, type, name: alias, description: '', prev, parent, config: {} };
}

const containers = (n: NodeSpec) => (n.type === 'branch' ? ['big', 'small'] : []);

describe('workflow graph', () => {
  it('walks sequences, enters containers and climbs out of them', () => {
    const graph = new WorkflowGraph('start_1', [node('a', 'start_1'), node('b', 'a', null, 'branch'), node('c', 'b'), node('x', null, 'big'), node('y', 'x', 'big'), node('z', null, 'small')], containers);
    expect(graph.problems).toEqual([]);
    expect(graph.first(null)).toBe('a');
    expect(graph.after('a')).toBe('b');
    expect(graph.first('big')).toBe('x');
    expect(graph.after('x')).toBe('y');
    expect(graph.after('y')).toBe('c');
    expect(graph.after('z')).toBe('c');
    expect(graph.after('c')).toBeNull();
    expect(graph.before('y')).toEqual(['a', 'b', 'x']);
  });

  it('reports nodes outside any chain, two nodes after one, and unknown containers', () => {
    const graph = new WorkflowGraph('start_1', [node('a', 'start_1'), node('b', 'a'), node('c', 'a'), node('d', 'nowhere'), node('e', null, 'missing')], containers);
    expect(graph.problems.map((p) => `${p.nodeAlias}.${p.path}`).sort()).toEqual(['c.prevNode', 'd.prevNode', 'e.parentNode']);
  });
});
