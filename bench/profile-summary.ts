import { readFile } from 'node:fs/promises';

/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile spent its
 * time, by function (self time) and by package or source folder.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function origin(url: string): string {
  const inModules = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  const inProject = /\/(dist|src)\/(.+)\/[^/]+$/.exec(url);
  if (inProject) return `${inProject[1]}/${inProject[2]}`;
  if (url.startsWith('node:')) return url;
  return url === '' ? '(native / V8)' : url.replace(/^file:\/\//, '');
}

function top(totals: Map<string, number>, all: number, count: number): string[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${((micros / all) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}

const [file, count = '30'] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const label = (frame: ProfileNode['callFrame']): string => {
  const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'} ${where}`.trim();
};
const byFunction = new Map<string, number>();
/** Time with the function on the stack (callees included), for the project's own code only. */
const inclusiveOwn = new Map<string, number>();
const byOrigin = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)!.callFrame;
  const micros = profile.timeDeltas[i] ?? 0;
  const name = label(frame);
  const onStack = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const own = byId.get(at)!.callFrame;
    if (/\/(dist|src)\//.test(own.url) && !own.url.includes('node_modules')) onStack.add(label(own));
  }
  for (const own of onStack) inclusiveOwn.set(own, (inclusiveOwn.get(own) ?? 0) + micros);
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  byOrigin.set(origin(frame.url), (byOrigin.get(origin(frame.url)) ?? 0) + micros);
  all += micros;
});
console.log(`${(all / 1000).toFixed(0)} ms sampled\n\nSelf time by function:`);
console.log(top(byFunction, all, Number(count)).join('\n'));
console.log('\nSelf time by package or folder:');
console.log(top(byOrigin, all, 15).join('\n'));
console.log("\nTotal time (callees included) of the project's own functions:");
console.log(top(inclusiveOwn, all, Number(count)).join('\n'));
