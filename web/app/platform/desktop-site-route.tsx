import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PageSpinner } from '../ui/page-spinner';
import { desktopBridge } from './desktop-bridge';

/**
 * The desktop window's stand-in for the public pages (landing, legal pages,
 * guides, API docs), which the desktop bundle does not carry: the page opens
 * in the browser on the configured server, and the window goes back to where
 * it was (or to the dashboard when the page was its first screen).
 */
export default function DesktopSiteRoute() {
  const { pathname, search, key } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const bridge = desktopBridge();
    void (async () => {
      if (bridge) {
        const { serverUrl } = await bridge.invoke('settings:get');
        await bridge.invoke('app:open-external', { url: `${serverUrl}${pathname}${search}` });
      }
      // 'default': the window opened on this page, so there is nothing of the app's to go back to.
      if (key !== 'default') navigate(-1);
      else navigate('/dashboard', { replace: true });
    })();
  }, [pathname, search, key, navigate]);
  return <PageSpinner />;
}
