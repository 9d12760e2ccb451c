import type { ReactNode } from 'react';

/** A legal text: heading, date of the current version, sections. */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="site-article">
      <h1>{title}</h1>
      <p className="site-meta-line">Last updated: 16 November 2026</p>
      {children}
    </article>
  );
}
