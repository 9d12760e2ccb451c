import { useSession } from '../session/session-store';
import { desktopBridge } from './desktop-bridge';
import { DesktopSessionStorage } from './desktop-session-storage';
import { sessionStorageAdapter } from './platform';

/**
 * In the desktop shell, before the first render: loads the session main
 * keeps and follows its changes (token refresh, sign-out from the tray).
 * In the browser it does nothing.
 */
export async function startDesktopPlatform(): Promise<void> {
  const bridge = desktopBridge();
  const storage = sessionStorageAdapter();
  if (!bridge || !(storage instanceof DesktopSessionStorage)) return;
  await storage.load();
  useSession.getState().hydrate();
  bridge.on('session:changed', (snapshot) => {
    storage.replace(snapshot);
    useSession.getState().hydrate();
  });
}
