/**
 * The text of a text, Markdown or HTML document's bytes. UTF-8 unless the bytes say otherwise:
 * - a byte order mark decides (UTF-8, UTF-16 LE or BE) and is dropped;
 * - bytes that are not valid UTF-8 are read in the charset the sender declared
 *   (`text/plain; charset=…`) or, for HTML, the page's own `<meta charset>`; else as windows-1252,
 *   the usual encoding of older Western files, which accepts every byte.
 * Line ends become `\n`.
 * @example decodeDocumentText(Buffer.from('caf\xe9', 'latin1'), 'text/plain; charset=iso-8859-1') // 'café'
 */
export function decodeDocumentText(bytes: Uint8Array, declaredType?: string | null): string {
  return decode(bytes, declaredType).replace(/\r\n?/g, '\n');
}

function decode(bytes: Uint8Array, declaredType?: string | null): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: fall through to what the sender or the page says, then windows-1252.
  }
  for (const label of [charsetParameter(declaredType), metaCharset(bytes)]) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // A label TextDecoder does not know: try the next.
    }
  }
  return windows1252(bytes);
}

/**
 * What windows-1252 puts at 0x80–0x9F (undefined bytes stay as their C1 control), from the WHATWG
 * Encoding standard. Node 20's TextDecoder('windows-1252') decodes these as ISO-8859-1 controls,
 * losing €, curly quotes and dashes, so they are mapped here.
 */
const WINDOWS_1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

function windows1252(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes).replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

function charsetParameter(declaredType?: string | null): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(declaredType ?? '')?.[1];
}

/** `<meta charset="…">` or `<meta http-equiv="Content-Type" content="…; charset=…">` in the first 1,024 bytes, as browsers look for it. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
