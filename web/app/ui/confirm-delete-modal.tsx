import { useState, type ReactNode } from 'react';
import { Modal } from './modal';

interface ConfirmDeleteModalProps {
  title: string;
  /** Name of the danger button, which the browser tests find it by. */
  confirmLabel: string;
  children: ReactNode;
  /** Resolves true once deleted (the dialog closes), false to let the user try again. */
  onConfirm(): Promise<boolean>;
  onClose(): void;
}

/** Asks before something is deleted for good: Cancel, or a danger button that stays disabled while the delete runs. */
export function ConfirmDeleteModal({ title, confirmLabel, children, onConfirm, onClose }: ConfirmDeleteModalProps) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    if (await onConfirm()) onClose();
    else setBusy(false);
  };
  return (
    <Modal
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
            {busy ? 'Deleting...' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
