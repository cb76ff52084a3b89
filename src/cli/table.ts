/**
 * Rows of text in columns as wide as their widest cell, two spaces apart; `align` right-aligns the
 * columns it names (numbers). The last column is not padded.
 */
export function columns(rows: readonly (readonly string[])[], align: readonly ('left' | 'right')[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1 && align[i] !== 'right') return cell;
        return align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0);
      })
      .join('  '),
  );
}
