import { API_BASE_ARGUMENT } from '@cronbeam/shared/desktop/ipc-channels';

/** The app's own origin: the renderer bundle is served from it, and the API is forwarded under it. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'cronbeam';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Content Security Policy of the window: only the app's own scripts, styles
 * and API (which the app protocol forwards to the server), no inline script,
 * no plugins, no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // React sets style attributes; no stylesheet from elsewhere.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Web preferences every Cronbeam window gets. */
export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  spellcheck: boolean;
  additionalArguments: string[];
}


export function secureWebPreferences(preload: string): SecureWebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: true,
    additionalArguments: [`${API_BASE_ARGUMENT}${APP_ORIGIN}/api`],
  };
}

/** Whether a URL belongs to the app (navigation stays inside it); a dev server counts in development. */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true;
    return devServerUrl !== undefined && parsed.origin === new URL(devServerUrl).origin;
  } catch {
    return false;
  }
}

/**
 * Links the app may open in the user's browser: https pages of the
 * configured server and of the project's own sites. Anything else (file:,
 * javascript:, custom schemes, unknown hosts) is refused.
 */
export function isAllowedExternalUrl(url: string, serverUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  const server = new URL(serverUrl);
  if (parsed.origin === server.origin) return true;
  if (parsed.protocol !== 'https:') return false;
  return parsed.hostname === 'cronbeam.io' || parsed.hostname.endsWith('.cronbeam.io');
}
