import type { IpcEvents } from '@cronbeam/shared/desktop/ipc-contract';
import type { SystemPort, TrayPort, WindowsPort } from '../../../desktop/main/desktop-app';
import type { NotificationPort } from '../../../desktop/main/notify/notifier';
import type { KeychainModule, SecretCipher } from '../../../desktop/main/session/token-vault';
import type { TrayAction, TrayView } from '../../../desktop/main/tray/tray-model';

/**
 * Stand-ins for the Electron APIs behind DesktopApp's ports (the Electron
 * binary cannot run here): each records what the app asked of it.
 */
export class RecordingTray implements TrayPort {
  readonly views: TrayView[] = [];
  private act: ((action: TrayAction) => void) | null = null;

  render(view: TrayView, onAction: (action: TrayAction) => void): void {
    this.views.push(view);
    this.act = onAction;
  }

  get last(): TrayView {
    const view = this.views.at(-1);
    if (!view) throw new Error('the tray was never drawn');
    return view;
  }

  /** Clicks a menu item the way Electron's Menu would. */
  click(action: TrayAction): void {
    this.act?.(action);
  }
}

export class RecordingNotifications implements NotificationPort {
  readonly shown: Array<{ title: string; body: string; onClick: () => void }> = [];

  show(notification: { title: string; body: string; onClick: () => void }): void {
    this.shown.push(notification);
  }
}

export class RecordingWindows implements WindowsPort {
  readonly routes: string[] = [];
  readonly events: Array<{ event: keyof IpcEvents; payload: unknown }> = [];

  show(route: string): void {
    this.routes.push(route);
  }

  broadcast<E extends keyof IpcEvents>(event: E, payload: IpcEvents[E]): void {
    this.events.push({ event, payload });
  }
}

export class FakeSystem implements SystemPort {
  startAtLogin = false;
  doNotDisturb = false;
  quitCalled = false;
  readonly opened: string[] = [];

  setStartAtLogin(enabled: boolean): void {
    this.startAtLogin = enabled;
  }
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  }
  isDoNotDisturb(): boolean {
    return this.doNotDisturb;
  }
  quit(): void {
    this.quitCalled = true;
  }
}

/**
 * safeStorage's contract (OS-keyed encryption) with a fixed XOR key: enough
 * to prove the vault never writes the token in the clear.
 */
export class FakeCipher implements SecretCipher {
  constructor(public available = true) {}

  isEncryptionAvailable(): boolean {
    return this.available;
  }
  encryptString(plain: string): Buffer {
    if (!this.available) throw new Error('Encryption is not available');
    return Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a));
  }
  decryptString(encrypted: Buffer): string {
    return Buffer.from(encrypted.map((b) => b ^ 0x5a)).toString('utf8');
  }
}

/** An in-memory OS keychain with keytar's signatures. */
export class FakeKeychain implements KeychainModule {
  readonly entries = new Map<string, string>();

  async getPassword(service: string, account: string): Promise<string | null> {
    return this.entries.get(`${service}/${account}`) ?? null;
  }
  async setPassword(service: string, account: string, password: string): Promise<void> {
    this.entries.set(`${service}/${account}`, password);
  }
  async deletePassword(service: string, account: string): Promise<boolean> {
    return this.entries.delete(`${service}/${account}`);
  }
}
