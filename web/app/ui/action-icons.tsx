import type { ReactNode } from 'react';

/** 16 px line icons for the compact row actions of a table; they draw in the text colour. */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const ACTION_ICONS = {
  pause: (
    <Icon>
      <path d="M5.5 3.5v9M10.5 3.5v9" />
    </Icon>
  ),
  resume: (
    <Icon>
      <path d="M5 3.2v9.6L12.5 8z" />
    </Icon>
  ),
  logs: (
    <Icon>
      <path d="M3 4h10M3 8h10M3 12h6" />
    </Icon>
  ),
  edit: (
    <Icon>
      <path d="M10.5 2.8l2.7 2.7-7.7 7.7H2.8v-2.7z" />
    </Icon>
  ),
  clone: (
    <Icon>
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.2" />
      <path d="M10.5 3V2.5h-8v8H3" />
    </Icon>
  ),
  delete: (
    <Icon>
      <path d="M2.8 4.2h10.4M6.3 4.2V2.8h3.4v1.4M4.2 4.2l.7 9h6.2l.7-9" />
    </Icon>
  ),
} as const;
