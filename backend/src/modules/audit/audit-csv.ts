import { AUDIT_CSV_COLUMNS, type AuditEvent } from '@cronbeam/shared/audit/audit';

/**
 * One CSV cell. A cell a spreadsheet would read as a formula (=, +, -, @,
 * tab or carriage return first) gets a leading apostrophe: a target name or
 * a changed field is the text of whoever made the change, and opening the
 * export must not run it. Every cell is quoted.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvHeader(): string {
  return `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
}

export function csvLine(event: AuditEvent): string {
  return `${AUDIT_CSV_COLUMNS.map((column) => csvCell(event[column])).join(',')}\r\n`;
}
