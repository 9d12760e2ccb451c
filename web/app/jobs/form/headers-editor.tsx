import { useEffect, useRef, useState } from 'react';
import { headerRow, type HeaderRow } from './job-form-model';

interface HeadersEditorProps {
  rows: HeaderRow[];
  onChange(rows: HeaderRow[]): void;
  error?: string;
}

/**
 * Optional request headers as name/value rows that can be added and removed.
 * The add button sits above the rows, so a new row appears below it, and the
 * keyboard lands in the new row's name field; removing a row returns focus to
 * the add button rather than dropping it to the page.
 */
export function HeadersEditor({ rows, onChange, error }: HeadersEditorProps) {
  const [focusRowId, setFocusRowId] = useState<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusRowId === null) return;
    document.getElementById(`header-name-${focusRowId}`)?.focus();
    setFocusRowId(null);
  }, [focusRowId, rows]);

  const edit = (id: number, patch: Partial<HeaderRow>) => onChange(rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  const add = () => {
    const row = headerRow();
    onChange([...rows, row]);
    setFocusRowId(row.id);
  };
  const remove = (id: number) => {
    onChange(rows.filter((r) => r.id !== id));
    addButton.current?.focus();
  };
  return (
    <fieldset className="headers-editor">
      <legend className="field-label">Headers (optional)</legend>
      <button ref={addButton} type="button" className="button button-ghost button-small" onClick={add}>
        + Add header
      </button>
      {rows.length === 0 && <p className="field-hint">No headers. Rows with an empty name or value are not sent.</p>}
      {rows.map((row, index) => (
        <div className="header-row" key={row.id}>
          <label className="visually-hidden" htmlFor={`header-name-${row.id}`}>
            Header {index + 1} name
          </label>
          <input id={`header-name-${row.id}`} placeholder="Header name" value={row.name} onChange={(e) => edit(row.id, { name: e.target.value })} />
          <label className="visually-hidden" htmlFor={`header-value-${row.id}`}>
            Header {index + 1} value
          </label>
          <input id={`header-value-${row.id}`} placeholder="Value" value={row.value} onChange={(e) => edit(row.id, { value: e.target.value })} />
          <button type="button" className="icon-button" onClick={() => remove(row.id)} aria-label={`Remove header ${index + 1}`}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      ))}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
