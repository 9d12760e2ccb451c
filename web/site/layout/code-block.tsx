import { createContext, useContext, useState } from 'react';

/** Tells a page's code blocks how to announce a copy (guides show a toast). */
export const CopyNoticeContext = createContext<((message: string) => void) | null>(null);

/** A code sample with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const notice = useContext(CopyNoticeContext);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      notice?.('Copied to clipboard');
    } catch {
      notice?.('Failed to copy to clipboard');
    }
  };
  return (
    <figure className="site-code">
      <pre aria-label={label} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <button type="button" className="site-code-copy" onClick={() => void copy()} aria-label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </figure>
  );
}
