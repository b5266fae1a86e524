import { connect } from 'node:net';

/** A response read off the socket: status line, headers, and the body parsed as JSON. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Sends bytes exactly as given (malformed HTTP included) to a listening server and reads until
 * the server closes the connection, or until the first complete response when it keeps it open.
 */
export function sendRaw(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no complete response: ${JSON.stringify(text.slice(0, 200))}`));
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? NaN);
      const rawBody = Number.isNaN(length) ? text.slice(split + 4) : Buffer.from(text.slice(split + 4)).subarray(0, length).toString('utf8');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rawBody) });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /content-length:\s*(\d+)/i.exec(text.slice(0, split))?.[1];
      if (split >= 0 && length !== undefined && Buffer.byteLength(text.slice(split + 4)) >= Number(length)) {
        socket.destroy();
        finish();
      }
    });
    socket.on('end', finish);
    socket.on('error', (error) => (chunks.length > 0 ? finish() : reject(error)));
    socket.write(request);
  });
}
