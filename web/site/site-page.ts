import type { ComponentType } from 'react';
import type { PageMeta } from './site-meta';

/** A public page module: its metadata and its content (framed by SiteLayout). */
export interface SitePage {
  meta: PageMeta;
  Page: ComponentType;
  /** Extra path the page answers at (with a 404 status for the not-found page). */
  status?: 200 | 404;
}
