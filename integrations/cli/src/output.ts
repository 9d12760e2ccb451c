/** Prints for people (tables, lines) or, with --json, one JSON document for scripts. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** Columns padded to their widest cell; an empty list prints `empty` instead. */
export function printTable(headers: string[], rows: string[][], empty: string): void {
  if (rows.length === 0) {
    printLine(empty);
    return;
  }
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  printLine(line(headers));
  for (const row of rows) printLine(line(row));
}

/** An object's fields, one `name: value` a line, for `get`. */
export function printFields(record: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(record).map((key) => key.length));
  for (const [key, value] of Object.entries(record)) {
    printLine(`${`${key}:`.padEnd(width + 1)} ${cell(value)}`);
  }
}

/** One table cell: '-' for nothing, JSON for objects. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
