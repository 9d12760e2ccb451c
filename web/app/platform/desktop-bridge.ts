import type { DesktopBridge } from '@cronbeam/shared/desktop/ipc-contract';

declare global {
  interface Window {
    /** Set by the desktop shell's preload; absent in the browser. */
    cronbeam?: DesktopBridge;
  }
}

/** The desktop shell's bridge when the app runs in its window, else null (the web). */
export function desktopBridge(): DesktopBridge | null {
  return window.cronbeam?.platform === 'desktop' ? window.cronbeam : null;
}
