import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateSecretService {
  /** The D-Bus session address the keyring daemon serves on. */
  address: string;
  stop(): Promise<void>;
}

function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/**
 * A throw-away Secret Service: a private D-Bus session bus and a GNOME
 * Keyring daemon whose keyrings live in a temporary folder (never the
 * user's own), unlocked with a test password. Null when the machine lacks
 * them (.ci/run installs both).
 */
export async function startPrivateSecretService(): Promise<PrivateSecretService | null> {
  if (!installed('dbus-daemon') || !installed('gnome-keyring-daemon')) return null;
  const home = await mkdtemp(join(tmpdir(), 'cronbeam-keyring-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    // The daemons write into the folder until they are gone: remove it only after they exited.
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
      ),
    );
    await rm(home, { recursive: true, force: true });
  };
  try {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(bus);
    const address = await new Promise<string>((resolve, reject) => {
      let out = '';
      bus.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0].trim());
      });
      bus.on('exit', () => reject(new Error('dbus-daemon exited')));
    });
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: address, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home };
    const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    children.push(keyring);
    keyring.stdin!.end('cronbeam-test');
    return { address, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
