import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { PageSpinner } from '../app/ui/page-spinner';
import { SiteLayout } from './layout/site-layout';
import { loadSitePage } from './site-pages';
import type { SitePage } from './site-page';
import './site.css';

/** A public page inside the single-page app (client-side navigation, the dev server, the desktop window). */
export default function SiteRoute() {
  const { pathname } = useLocation();
  const [page, setPage] = useState<{ path: string; page: SitePage } | null>(null);
  useEffect(() => {
    let current = true;
    void loadSitePage(pathname).then((mod) => {
      if (current) setPage({ path: pathname, page: mod.default });
    });
    return () => {
      current = false;
    };
  }, [pathname]);
  if (!page || page.path !== pathname) return <PageSpinner />;
  const { Page, meta } = page.page;
  return (
    <SiteLayout meta={meta}>
      <Page />
    </SiteLayout>
  );
}
