import { SIGNED_OUT_KEY, decideHostRoute, type HostDecision, type SiteHosts } from '@cronbeam/shared/site/host-guard';
import { lazy, useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { sessionStorageAdapter } from './platform/platform';
import { isIdTokenExpired } from './session/id-token';
import { useSession } from './session/session-store';

const SiteRoute = lazy(() => import('../site/site-route'));

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
    signedOut: sessionStorageAdapter().get(SIGNED_OUT_KEY) === '1',
  });
}

/**
 * Applies the host guards on every client-side navigation (the server applied
 * them to the first load). A page the guards turn away is not rendered at all,
 * so no screen runs its own checks on a session that is being ended.
 */
export function HostGuard({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const decision = decide(pathname, search);
  const target = decision.kind === 'redirect' ? decision.location : null;
  const clearSession = decision.kind === 'redirect' && decision.clearSession;
  useEffect(() => {
    if (target === null) return;
    if (clearSession) useSession.getState().clear();
    if (/^https?:\/\//.test(target)) window.location.replace(target);
    else navigate(target, { replace: true });
  }, [target, clearSession, navigate]);
  return target === null ? children : null;
}

export { SiteRoute };
