import { useState } from 'react';

/** Copies a value (a job id) to the clipboard and says so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard refused (insecure origin): the value stays visible to select by hand.
    }
  };
  return (
    <button type="button" className="copy-button" onClick={copy} aria-label={label} title={label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
