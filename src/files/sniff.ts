/**
 * The content type of a file, from its bytes (never from the name or what the sender claimed):
 * the signature file-type recognises; else text when the bytes are valid UTF-8 without control
 * characters (other than tab and line ends); else `application/octet-stream`.
 */
export async function sniffContentType(bytes: Buffer): Promise<string> {
  // Loaded on the first file: a server that never receives one does not carry the signature tables.
  const { fileTypeFromBuffer } = await import('file-type');
  const known = await fileTypeFromBuffer(bytes);
  if (known) return known.mime;
  if (bytes.length === 0) return 'application/octet-stream';
  const sample = bytes.subarray(0, 8192);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000e-\u001f]/.test(sample.toString('latin1'))) return 'application/octet-stream';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.length === bytes.length ? sample : trimPartial(sample));
    return 'text/plain';
  } catch {
    return 'application/octet-stream';
  }
}

/** A sample cut in the middle of a multi-byte character is not invalid: drop the broken tail. */
function trimPartial(sample: Buffer): Buffer {
  let end = sample.length;
  while (end > 0 && end > sample.length - 4 && (sample[end - 1] & 0xc0) === 0x80) end--;
  if (end > 0 && sample[end - 1] >= 0xc0) end--;
  return sample.subarray(0, end);
}
