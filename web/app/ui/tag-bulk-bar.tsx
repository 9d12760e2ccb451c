import type { BulkTagAction } from '@cronbeam/shared/tags/tags';
import { useState } from 'react';
import { ConfirmDeleteModal } from './confirm-delete-modal';

/** Every tag the items carry, each once, in alphabetical order (the filter's choices). */
export function tagsOf(items: ReadonlyArray<{ tags: readonly string[] }>): string[] {
  return [...new Set(items.flatMap((item) => item.tags))].sort();
}

/** Whether an item passes the tag filter ('' is every item). */
export const carriesTag = (item: { tags: readonly string[] }, tag: string): boolean => tag === '' || item.tags.includes(tag);

interface TagBulkBarProps {
  /** Prefix of the select's id (one bar per list). */
  id: string;
  /** 'jobs' or 'monitors', in the labels. */
  noun: string;
  tags: string[];
  /** The chosen tag, '' for every item. */
  selected: string;
  onSelect(tag: string): void;
  /** How many items carry the chosen tag. */
  count: number;
  /**
   * Runs one action on every item of the caller that carries the tag (the
   * server's bulk action: it acts on what it holds, which may be more than
   * this list shows). Resolves true when done.
   */
  onAction(action: BulkTagAction, tag: string): Promise<boolean>;
}

/**
 * A list's tag filter and, once a tag is chosen, the actions on all its items
 * at once: pause, resume, and delete after confirmation.
 */
export function TagBulkBar({ id, noun, tags, selected, onSelect, count, onAction }: TagBulkBarProps) {
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  if (tags.length === 0 && selected === '') return null;
  const counted = `${count} ${count === 1 ? noun.replace(/s$/, '') : noun}`;

  const run = async (action: BulkTagAction): Promise<boolean> => {
    setBusy(true);
    try {
      return await onAction(action, selected);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <label htmlFor={`${id}-tag-filter`}>Tag</label>
      <select id={`${id}-tag-filter`} value={selected} onChange={(e) => onSelect(e.target.value)}>
        <option value="">All tags</option>
        {[...new Set([...tags, ...(selected ? [selected] : [])])].map((tag) => (
          <option key={tag} value={tag}>
            {tag}
          </option>
        ))}
      </select>
      {selected !== '' && (
        <div className="tag-bulk-actions" role="group" aria-label={`Actions on all ${noun} tagged ${selected}`}>
          <span className="muted">
            {counted} tagged <strong>{selected}</strong>
          </span>
          <button type="button" className="button button-secondary button-small" disabled={busy || count === 0} onClick={() => void run('pause')}>
            Pause all
          </button>
          <button type="button" className="button button-secondary button-small" disabled={busy || count === 0} onClick={() => void run('resume')}>
            Resume all
          </button>
          <button type="button" className="button button-small button-danger-outline" disabled={busy || count === 0} onClick={() => setConfirmDelete(true)}>
            Delete all
          </button>
        </div>
      )}
      {confirmDelete && (
        <ConfirmDeleteModal title={`Delete all ${noun} tagged ${selected}`} confirmLabel={`Delete ${counted}`} onConfirm={() => run('delete')} onClose={() => setConfirmDelete(false)}>
          <p>
            Delete every one of your {noun} tagged <strong>{selected}</strong> ({count})? Their history is removed. This cannot be undone.
          </p>
        </ConfirmDeleteModal>
      )}
    </>
  );
}

/** A job's or monitor's tags under its name. */
export function TagChips({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="tag-chips" aria-label="Tags">
      {tags.map((tag) => (
        <span key={tag} className="tag-chip">
          {tag}
        </span>
      ))}
    </span>
  );
}

/** The word for an action done, in the confirmation toast. */
export const ACTION_DONE: Record<BulkTagAction, string> = { pause: 'paused', resume: 'resumed', delete: 'deleted' };
