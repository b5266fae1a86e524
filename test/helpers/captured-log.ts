import { Writable } from 'node:stream';

/**
 * A pino destination that keeps every line it is given, for tests that search the server's log.
 * @example const log = capturedLog(); describeApi('…', define, { LOG_LEVEL: 'trace' }, { logger: { level: 'trace', stream: log.stream } }); … log.text()
 */
export function capturedLog(): { stream: Writable; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}
