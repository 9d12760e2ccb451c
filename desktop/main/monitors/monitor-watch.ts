import type { Monitor } from '@cronbeam/shared/notifications/monitor-types';
import { systemTimers, type Timers } from '../timers';

/** The event stream carries job runs only: monitors are read this often while signed in. */
export const MONITOR_POLL_MS = 60_000;

export interface WatchedMonitor {
  id: string;
  name: string;
  status: Monitor['status'];
  lastPingAt: string | null;
}

/** A monitor that went down or came back since the previous read. */
export interface MonitorChange {
  kind: 'down' | 'recovered';
  monitor: WatchedMonitor;
}

export interface MonitorWatchOptions {
  /** Reads the signed-in user's monitors. */
  list: () => Promise<Monitor[]>;
  timers?: Timers;
  /** A failed read (offline, signed out meanwhile): the next one is tried at the usual time. */
  onError?: (error: unknown) => void;
  /** False while the server is known to be out of reach: the read is skipped, not failed (the caller refreshes when it is back). */
  reachable?: () => boolean;
}

/**
 * Keeps the signed-in user's heartbeat monitors current for the tray by
 * reading them every MONITOR_POLL_MS (and at once when asked, as when the
 * event feed comes back). The first read after start only records the
 * statuses: monitors already down then started their outage earlier. After
 * that a monitor turning down, and one coming back up from down, are changes.
 */
export class MonitorWatch {
  private monitors = new Map<string, WatchedMonitor>();
  private readonly changeListeners = new Set<(change: MonitorChange) => void>();
  private readonly listeners = new Set<() => void>();
  private readonly timers: Timers;
  private timer: unknown = null;
  private running = false;
  private seeded = false;
  /** Reads are numbered so that one answered after stop() or a newer read is dropped. */
  private generation = 0;

  constructor(private readonly options: MonitorWatchOptions) {
    this.timers = options.timers ?? systemTimers;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatusChange(listener: (change: MonitorChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.refresh();
  }

  /** Stops reading and forgets everything (another account may sign in next). */
  stop(): void {
    this.running = false;
    this.seeded = false;
    this.generation += 1;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.monitors.size > 0) {
      this.monitors.clear();
      this.emit();
    }
  }

  /** Reads now and schedules the next read a full period later. */
  async refresh(): Promise<void> {
    if (!this.running) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => void this.refresh(), MONITOR_POLL_MS);
    if (this.options.reachable && !this.options.reachable()) return;
    const generation = ++this.generation;
    let listed: Monitor[];
    try {
      listed = await this.options.list();
    } catch (error) {
      this.options.onError?.(error);
      return;
    }
    if (generation !== this.generation || !this.running) return;
    this.apply(listed);
  }

  downMonitors(): WatchedMonitor[] {
    return [...this.monitors.values()].filter((m) => m.status === 'down').sort((a, b) => a.name.localeCompare(b.name));
  }

  private apply(listed: Monitor[]): void {
    const changes: MonitorChange[] = [];
    const next = new Map<string, WatchedMonitor>();
    for (const m of listed) {
      const monitor: WatchedMonitor = { id: m.monitor_id, name: m.name, status: m.status, lastPingAt: m.last_ping_at };
      const before = this.monitors.get(m.monitor_id)?.status;
      next.set(monitor.id, monitor);
      if (!this.seeded) continue;
      if (monitor.status === 'down' && before !== 'down') changes.push({ kind: 'down', monitor });
      else if (monitor.status === 'up' && before === 'down') changes.push({ kind: 'recovered', monitor });
    }
    this.seeded = true;
    this.monitors = next;
    for (const change of changes) for (const listener of this.changeListeners) listener(change);
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
