/** One row of a table as its parser read it. */
export interface TableRow {
  cells: string[];
  /** Every cell of the row is a header cell (`<th>`, a Markdown table's first row). */
  header: boolean;
}

/**
 * A table as text a passage can carry, one row a line. When the first row is a header row, each
 * later row says its values with their column names (`Plan: Pro; Price: 20 €`), so that a row cut
 * away from its header by chunking still says what its values are; without one, the cells are
 * joined with ` | `. Empty cells are left out.
 * @example tableText([{ cells: ['Plan', 'Price'], header: true }, { cells: ['Pro', '20 €'], header: false }]) // 'Plan: Pro; Price: 20 €'
 */
export function tableText(rows: readonly TableRow[]): string {
  const [first, ...rest] = rows;
  if (!first) return '';
  if (!first.header || rest.length === 0) {
    return rows.map((row) => row.cells.filter((cell) => cell !== '').join(' | ')).filter((line) => line !== '').join('\n');
  }
  return rest
    .map((row) =>
      row.cells
        .map((cell, i) => (cell === '' ? '' : first.cells[i] ? `${first.cells[i]}: ${cell}` : cell))
        .filter((part) => part !== '')
        .join('; '),
    )
    .filter((line) => line !== '')
    .join('\n');
}
