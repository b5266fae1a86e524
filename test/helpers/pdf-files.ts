/**
 * Small PDF files written byte by byte for the document parser's tests: pages of text lines in
 * Helvetica, optionally a Title in the information dictionary. Enough PDF (catalog, page tree,
 * content streams, cross-reference table) for pdf.js to read them as a real file.
 * @example makePdf([['First page.'], ['Second page.']], { title: 'Report' })
 */
export function makePdf(pages: string[][], options: { title?: string } = {}): Buffer {
  const objects: string[] = [];
  const font = 3;
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[font] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  pages.forEach((lines, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((line) => `${literal(line)} '`).join(' ')} ET`;
    objects[4 + i * 2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objects[5 + i * 2] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  const info = options.title === undefined ? null : objects.push(`<< /Title ${literal(options.title)} >>`) - 1;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n${offsets.slice(1).map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R${info === null ? '' : ` /Info ${info} 0 R`} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
