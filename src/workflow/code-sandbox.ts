import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline } from 'quickjs-emscripten-core';

/** What a sandboxed run may use. */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
}

/** A script's failure: its own error, or a limit reached. */
export class SandboxError extends Error {}

/** The most JSON a script may return. */
const MAX_RESULT_CHARS = 256 * 1024;

function describe(error: unknown): string {
  const dumped = error as { name?: string; message?: string } | string;
  if (typeof dumped === 'string') return dumped;
  return `${dumped?.name ?? 'Error'}: ${dumped?.message ?? JSON.stringify(dumped)}`;
}

/**
 * Runs a workflow's JavaScript in QuickJS compiled to WebAssembly (quickjs-emscripten): no access to
 * Node, the network, files or the server's memory, only `input` (JSON). Each run gets its own
 * WebAssembly instance, so that nothing a script does (or a limit that stops it) outlasts the run;
 * `timeoutMs` stops it by QuickJS's interrupt handler, `memoryBytes` by its allocator limit. The
 * script is the body of a function of `input` whose returned value (JSON) is the result.
 * @example await runSandboxed('return { total: input.a + input.b }', { a: 1, b: 2 }, { timeoutMs: 1000, memoryBytes: 16 << 20 }) // { total: 3 }
 */
export async function runSandboxed(code: string, input: Record<string, unknown>, limits: SandboxLimits): Promise<unknown> {
  // The variant's CommonJS type declarations and the core's ES module ones name the same types twice for TypeScript; at run time it is the variant object.
  const quickjs = await newQuickJSWASMModuleFromVariant(variant as unknown as Parameters<typeof newQuickJSWASMModuleFromVariant>[0]);
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(512 * 1024);
  const vm = runtime.newContext();
  const deadline = Date.now() + limits.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  // The input goes in as a JSON text (a JSON text is a JavaScript expression); the result comes out as one.
  const script = `JSON.stringify((function (input) {\n${code}\n})(JSON.parse(${JSON.stringify(JSON.stringify(input))})) ?? null)`;
  const result = vm.evalCode(script, 'code.js');
  try {
    if (result.error) {
      const error = vm.dump(result.error) as unknown;
      result.error.dispose();
      const text = describe(error);
      if (Date.now() >= deadline && /interrupted/.test(text)) throw new SandboxError(`the code ran longer than ${limits.timeoutMs} ms`);
      if (/out of memory/.test(text)) throw new SandboxError(`the code used more than ${Math.round(limits.memoryBytes / 1048576)} MB of memory`);
      throw new SandboxError(`the code threw ${text}`);
    }
    const json = vm.getString(result.value);
    result.value.dispose();
    if (json.length > MAX_RESULT_CHARS) throw new SandboxError(`the code returned more than ${MAX_RESULT_CHARS} characters of JSON`);
    return JSON.parse(json) as unknown;
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // This run's own WebAssembly instance, dropped with it: a failed clean-up after a limit stopped the script harms nothing else.
    }
  }
}
