import type { ReactNode } from 'react';
import { SiteFrame } from '../../site/layout/site-layout';
import '../../site/site.css';
import './billing.css';

/** The frame of /success and /cancel: the public site's header and footer, as on /pricing. */
export function BillingLayout({ children }: { children: ReactNode }) {
  return <SiteFrame>{children}</SiteFrame>;
}
