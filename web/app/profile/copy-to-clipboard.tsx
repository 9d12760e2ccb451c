import { notify } from '../ui/toasts';

export const COPY_FAILED = 'Failed to copy to clipboard';

/** Copies a value and says whether it worked; a refusal (no clipboard permission) is reported to the user. */
export async function copyToClipboard(value: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    notify.success(`${what} copied to clipboard`);
    return true;
  } catch {
    notify.error(COPY_FAILED);
    return false;
  }
}

/** A Copy button for one value. */
export function CopyValueButton({ value, what }: { value: string; what: string }) {
  return (
    <button type="button" className="copy-button" onClick={() => void copyToClipboard(value, what)} aria-label={`Copy ${what}`}>
      Copy
    </button>
  );
}
