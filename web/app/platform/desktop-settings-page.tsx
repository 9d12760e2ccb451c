import type { DesktopSettings } from '@cronbeam/shared/desktop/ipc-contract';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { jobsApi } from '../api/jobs-api';
import { AuthLayout, FormAlert } from '../auth/auth-layout';
import { isIdTokenExpired } from '../session/id-token';
import { useSession } from '../session/session-store';
import { desktopBridge } from './desktop-bridge';

/** What the settings screen says about where the tokens are kept. */
export const TOKEN_STORE_TEXT: Record<DesktopSettings['tokenStore'], string> = {
  keychain: 'Your session is kept in the operating system keychain.',
  'safe-storage':
    'The operating system keychain is not available: your session is kept in a file of the app data folder, encrypted with the operating system’s user key (Electron safeStorage).',
};

/** Strips the "channel: " prefix main puts on a validation error. */
function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^Error invoking remote method '[^']+': /, '').replace(/^(IpcValidationError|Error): /, '').replace(/^[a-z-]+:[a-z-]+: /, '');
}

/** Desktop-only settings: the server (self-hosted installs), start at login, muted jobs, and where the session is kept. */
export default function DesktopSettingsPage() {
  const bridge = desktopBridge();
  const [settings, setSettings] = useState<DesktopSettings | null>(null);
  const [serverUrl, setServerUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [jobs, setJobs] = useState<Job[]>([]);
  const signedIn = !isIdTokenExpired(useSession((s) => s.idToken));

  useEffect(() => {
    if (!bridge) return;
    void bridge.invoke('settings:get').then((value) => {
      setSettings(value);
      setServerUrl(value.serverUrl);
    });
  }, [bridge]);

  useEffect(() => {
    // Muting is per job of the signed-in account; signed out there is nothing to list.
    if (bridge && signedIn) void jobsApi.list().then(setJobs, () => setJobs([]));
  }, [bridge, signedIn]);

  if (!bridge) {
    return (
      <AuthLayout title="Desktop settings">
        <FormAlert kind="info">These settings exist in the Cronbeam desktop app only.</FormAlert>
      </AuthLayout>
    );
  }

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const next = await bridge.invoke('settings:set-server-url', { url: serverUrl });
      setSettings(next);
      setServerUrl(next.serverUrl);
      setSaved(true);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const toggleStartAtLogin = async (enabled: boolean) => {
    setSettings(await bridge.invoke('settings:set-start-at-login', { enabled }));
  };

  const setMuted = async (jobId: string, muted: boolean) => {
    setSettings(await bridge.invoke('settings:set-job-muted', { jobId, muted }));
  };

  return (
    <AuthLayout title="Desktop settings" subtitle="Changing the server signs you out of the current one.">
      {error && <FormAlert kind="error">{error}</FormAlert>}
      {saved && <FormAlert kind="success">Saved.</FormAlert>}
      <form onSubmit={save} noValidate>
        <div className="field">
          <label htmlFor="desktop-server-url">Server URL</label>
          <input
            id="desktop-server-url"
            name="serverUrl"
            type="url"
            value={serverUrl}
            onChange={(e) => setServerUrl(e.target.value)}
            aria-invalid={error !== null}
          />
        </div>
        <button type="submit" className="button button-primary">
          Save
        </button>
      </form>
      {settings && (
        <>
          <div className="field">
            <label>
              <input type="checkbox" checked={settings.startAtLogin} onChange={(e) => void toggleStartAtLogin(e.target.checked)} /> Start Cronbeam at
              login
            </label>
          </div>
          <p className="muted" data-testid="token-store">
            {TOKEN_STORE_TEXT[settings.tokenStore]}
          </p>
          {jobs.length > 0 && (
            <fieldset className="field">
              <legend>Failure notifications (muted jobs get none)</legend>
              {jobs.map((job) => (
                <label key={job.job_id}>
                  <input
                    type="checkbox"
                    checked={settings.mutedJobIds.includes(job.job_id)}
                    onChange={(e) => void setMuted(job.job_id, e.target.checked)}
                  />{' '}
                  Mute {job.name}
                </label>
              ))}
            </fieldset>
          )}
        </>
      )}
      <p>
        <Link to="/dashboard">Back to the dashboard</Link>
      </p>
    </AuthLayout>
  );
}
