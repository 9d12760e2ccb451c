import { decideHostRoute, type HostDecision, type SiteHosts } from '@shared/site/host-guard';
import { lazy, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isIdTokenExpired } from '../session/id-token';
import { useSession } from '../session/session-store';

const SiteRoute = lazy(() => import('./site-route'));

/**
 * The hosts the server announced in the page (it writes them into index.html),
 * or none: one host serves everything. The desktop window is always the app.
 */
export function readSiteHosts(): SiteHosts {
  if ('cronbeam' in window) return { app: window.location.host };
  const content = document.querySelector('meta[name="cronbeam:hosts"]')?.getAttribute('content');
  if (!content) return {};
  try {
    return JSON.parse(content) as SiteHosts;
  } catch {
    return {};
  }
}

function decide(pathname: string, search: string): HostDecision {
  return decideHostRoute({
    path: pathname,
    search,
    host: window.location.host,
    protocol: window.location.protocol.replace(':', ''),
    hosts: readSiteHosts(),
    hasSession: !isIdTokenExpired(useSession.getState().idToken),
  });
}

/** Applies the host guards on every client-side navigation (the server applied them to the first load). */
export function HostGuard() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const decision = decide(pathname, search);
    if (decision.kind !== 'redirect') return;
    if (decision.clearSession) useSession.getState().clear();
    if (/^https?:\/\//.test(decision.location)) window.location.replace(decision.location);
    else navigate(decision.location, { replace: true });
  }, [pathname, search, navigate]);
  return null;
}

/** `/`: the landing page where the guards serve it; HostGuard redirects everywhere else. */
export function HomeRoute() {
  const { pathname, search } = useLocation();
  return decide(pathname, search).kind === 'serve' ? <SiteRoute /> : null;
}

export { SiteRoute };
