import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { create } from 'zustand';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { monitorsApi } from '../api/monitors-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { notify } from '../ui/toasts';

interface MonitorsState {
  monitors: Monitor[];
  loaded: boolean;
  /** `quiet`: no error toast (the overview's panel, which a server without monitors simply leaves out). */
  load(quiet?: boolean): Promise<void>;
  /** Replaces one monitor in the list with the server's answer. */
  put(monitor: Monitor): void;
  setPaused(monitor: Monitor, paused: boolean): Promise<void>;
  remove(monitor: Monitor): Promise<boolean>;
}

/** The signed-in user's heartbeat monitors; changes also refresh the dashboard's counts (monitors use job places). */
export const useMonitors = create<MonitorsState>((set, get) => ({
  monitors: [],
  loaded: false,
  load: async (quiet = false) => {
    try {
      set({ monitors: await monitorsApi.list(), loaded: true });
    } catch (error) {
      set({ loaded: true });
      if (!quiet && !(error instanceof ApiRequestError && error.status === 401)) notify.error(`Failed to load monitors: ${errorMessage(error)}`);
    }
  },
  put: (monitor) => {
    const others = get().monitors.filter((m) => m.monitor_id !== monitor.monitor_id);
    const index = get().monitors.findIndex((m) => m.monitor_id === monitor.monitor_id);
    set({ monitors: index < 0 ? [...others, monitor] : get().monitors.map((m) => (m.monitor_id === monitor.monitor_id ? monitor : m)) });
    void useDashboard.getState().load('refresh');
  },
  setPaused: async (monitor, paused) => {
    try {
      get().put(await (paused ? monitorsApi.pause(monitor.monitor_id) : monitorsApi.resume(monitor.monitor_id)));
      notify.success(`Monitor '${monitor.name}' ${paused ? 'paused' : 'resumed'}`);
    } catch (error) {
      notify.error(`Failed to pause/resume monitor: ${errorMessage(error)}`);
    }
  },
  remove: async (monitor) => {
    try {
      await monitorsApi.remove(monitor.monitor_id);
    } catch (error) {
      notify.error(`Failed to delete monitor: ${errorMessage(error)}`);
      return false;
    }
    set({ monitors: get().monitors.filter((m) => m.monitor_id !== monitor.monitor_id) });
    void useDashboard.getState().load('refresh');
    notify.success(`Monitor '${monitor.name}' deleted`);
    return true;
  },
}));
