import { ALERT_CHANNEL_KINDS, ALERT_CHANNEL_SECRETS, OPSGENIE_ALERTS_URL, PAGERDUTY_EVENTS_URL, type AlertChannel, type AlertChannelKind } from '@cronbeam/shared/notifications/alert-channels';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { alertChannelsApi } from '../api/alert-channels-api';
import { useDashboard } from '../dashboard/dashboard-store';
import { ConfirmDeleteModal } from '../ui/confirm-delete-modal';
import { CopyButton } from '../ui/copy-button';
import { notify } from '../ui/toasts';
import { ALERT_OPTION } from './alert-option';
import './alert-channels.css';

const KIND_LABELS: Record<AlertChannelKind, string> = {
  email: 'Email address',
  webhook: 'Webhook (signed)',
  slack: 'Slack incoming webhook',
  discord: 'Discord webhook',
  telegram: 'Telegram bot',
  pagerduty: 'PagerDuty (Events API v2)',
  ntfy: 'ntfy topic',
  teams: 'Microsoft Teams webhook',
  alertmanager: 'Alertmanager-compatible webhook',
  opsgenie: 'Opsgenie (Alert API)',
};
const TARGET_LABELS: Record<AlertChannelKind, string> = {
  email: 'Email address',
  webhook: 'Webhook URL',
  slack: 'Slack webhook URL',
  discord: 'Discord webhook URL',
  telegram: 'Telegram chat id',
  pagerduty: 'PagerDuty events URL',
  ntfy: 'ntfy topic URL',
  teams: 'Teams webhook URL',
  alertmanager: 'Receiver URL',
  opsgenie: 'Opsgenie alerts URL',
};
/** What a refused target needs, in the form's words (the API's name the field: "target must be..."). */
const TARGET_PROBLEMS: Record<AlertChannelKind, string> = {
  email: 'Enter a valid email address, like ops@example.com.',
  webhook: 'Enter the full address of your webhook, starting with https:// (or http://).',
  slack: 'Paste the whole incoming webhook URL from Slack; it starts with https://hooks.slack.com/.',
  discord: 'Paste the whole webhook URL from Discord; it starts with https://discord.com/api/webhooks/.',
  telegram: 'Enter the chat id (digits, with a minus sign for groups and channels) or a public channel as @name.',
  pagerduty: `Enter the Events API address: ${PAGERDUTY_EVENTS_URL} (or events.eu.pagerduty.com for EU accounts).`,
  ntfy: 'Enter the whole topic address, like https://ntfy.sh/your-topic.',
  teams: 'Paste the whole webhook URL from the Teams channel or workflow, starting with https://.',
  alertmanager: 'Enter the full address of the receiver, starting with https:// (or http://).',
  opsgenie: `Enter the Alert API address: ${OPSGENIE_ALERTS_URL} (or api.eu.opsgenie.com for EU accounts).`,
};
/** The secret field's label per kind that takes one, and what to paste there. */
const SECRET_FIELDS: Partial<Record<AlertChannelKind, { label: string; hint: string }>> = {
  telegram: { label: 'Bot token', hint: 'The token BotFather gave your bot; add the bot to the chat first.' },
  pagerduty: { label: 'Routing key', hint: 'The 32-character integration key of an Events API v2 integration on your PagerDuty service.' },
  ntfy: { label: 'Access token (optional)', hint: 'Only for a protected topic: an access token (tk_...).' },
  opsgenie: { label: 'API key', hint: 'The key of an API integration in Opsgenie (Settings, Integrations, API); sent as Authorization: GenieKey.' },
  alertmanager: { label: 'Bearer token (optional)', hint: 'Sent as Authorization: Bearer when your receiver asks for one.' },
};
/** A target the form fills in when the kind is chosen: PagerDuty's one endpoint. */
const DEFAULT_TARGETS: Partial<Record<AlertChannelKind, string>> = { pagerduty: PAGERDUTY_EVENTS_URL, opsgenie: OPSGENIE_ALERTS_URL };

/**
 * The Alerts section: where failure, recovery and auto-pause alerts of jobs
 * with "Alert me when a run fails" also go, with a test button per channel.
 * An email channel to another address than the account's waits for its
 * recipient to confirm a mailed link; until then it shows as pending, with a
 * resend action instead of the test button.
 */
export default function AlertChannelsSection() {
  const [channels, setChannels] = useState<AlertChannel[]>([]);
  const [kind, setKind] = useState<AlertChannelKind>('webhook');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  /** What the kind takes besides the target (a bot token, a routing key); never shown again once saved. */
  const [channelSecret, setChannelSecret] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  /** The address a verification link was just mailed to, for the notice under the form. */
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** null: every job with alerts on; else the chosen jobs' ids. */
  const [jobIds, setJobIds] = useState<string[] | null>(null);
  const [deleting, setDeleting] = useState<AlertChannel | null>(null);
  const jobs = useDashboard((s) => s.jobs);
  const jobName = (id: string) => jobs.find((j) => j.job_id === id)?.name ?? id.slice(0, 8);

  const load = useCallback(async () => {
    try {
      setChannels(await alertChannelsApi.list());
    } catch (error) {
      notify.error(`Failed to load alert channels: ${errorMessage(error)}`);
    }
  }, []);
  useEffect(() => void load(), [load]);

  const secretField = SECRET_FIELDS[kind];
  const secretRequired = ALERT_CHANNEL_SECRETS[kind]?.required ?? false;
  /** A new kind keeps what was typed, except a target that was another kind's default, and forgets the secret. */
  const chooseKind = (next: AlertChannelKind) => {
    setKind(next);
    setChannelSecret('');
    setFieldError(null);
    if (!target.trim() || Object.values(DEFAULT_TARGETS).includes(target)) setTarget(DEFAULT_TARGETS[next] ?? '');
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFieldError(null);
    try {
      const created = await alertChannelsApi.create({
        name: name.trim(),
        kind,
        target: target.trim(),
        job_ids: jobIds,
        ...(SECRET_FIELDS[kind] && channelSecret.trim() ? { secret: channelSecret.trim() } : {}),
      });
      setSecret(created.secret ?? null);
      setMailedTo(created.status === 'pending_verification' ? created.target : null);
      setName('');
      setTarget(DEFAULT_TARGETS[kind] ?? '');
      setChannelSecret('');
      setJobIds(null);
      notify.success(`Alert channel '${created.name}' added`);
      await load();
    } catch (error) {
      const issue = error instanceof ApiRequestError ? error.fieldIssues[0] : undefined;
      setFieldError(issue?.loc.at(-1) === 'target' ? TARGET_PROBLEMS[kind] : (issue?.msg ?? errorMessage(error)));
    } finally {
      setBusy(false);
    }
  };

  const test = async (channel: AlertChannel) => {
    try {
      const delivery = await alertChannelsApi.test(channel.channel_id);
      if (delivery.status === 'delivered') notify.success(`Test alert delivered to '${channel.name}'`);
      else notify.error(`Test alert to '${channel.name}' failed: ${delivery.error ?? `HTTP ${delivery.response_code}`}. It is tried twice more within 5 seconds.`);
    } catch (error) {
      notify.error(`Failed to send test alert: ${errorMessage(error)}`);
    }
  };

  const resend = async (channel: AlertChannel) => {
    try {
      await alertChannelsApi.resendVerification(channel.channel_id);
      notify.success(`Verification link sent again to ${channel.target}`);
    } catch (error) {
      notify.error(`Failed to resend the verification link: ${errorMessage(error)}`);
    }
  };

  const remove = async (channel: AlertChannel): Promise<boolean> => {
    try {
      await alertChannelsApi.remove(channel.channel_id);
      notify.success(`Alert channel '${channel.name}' deleted`);
      await load();
      return true;
    } catch (error) {
      notify.error(`Failed to delete alert channel: ${errorMessage(error)}`);
      return false;
    }
  };

  return (
    <section aria-labelledby="alerts-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="alerts-title">Alert Channels</h1>
          <p className="muted">
            Jobs with &ldquo;{ALERT_OPTION}&rdquo; ticked in their form mail you and alert these channels too: once when failures start, once on
            recovery, and when a job pauses itself. Jobs without it alert no one.
          </p>
        </div>
      </div>
      <form className="panel panel-padded form" onSubmit={add} noValidate>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="channel-kind">Channel type</label>
            <select id="channel-kind" value={kind} onChange={(e) => chooseKind(e.target.value as AlertChannelKind)}>
              {ALERT_CHANNEL_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="channel-name">Channel name</label>
            <input id="channel-name" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="channel-target">{TARGET_LABELS[kind]}</label>
            <input id="channel-target" value={target} onChange={(e) => setTarget(e.target.value)} spellCheck={false} />
          </div>
          {secretField && (
            <div className="field">
              <label htmlFor="channel-secret">{secretField.label}</label>
              <input
                id="channel-secret"
                type="password"
                autoComplete="off"
                value={channelSecret}
                onChange={(e) => setChannelSecret(e.target.value)}
                spellCheck={false}
                aria-describedby="channel-secret-hint"
              />
              <span id="channel-secret-hint" className="field-hint">
                {secretField.hint} Stored encrypted; not shown again.
              </span>
            </div>
          )}
        </div>
        <fieldset className="field channel-jobs">
          <legend className="field-label">Jobs</legend>
          <label className="checkbox-row">
            <input type="checkbox" checked={jobIds === null} onChange={(e) => setJobIds(e.target.checked ? null : [])} />
            Every job with &ldquo;{ALERT_OPTION}&rdquo; ticked
          </label>
          {jobIds !== null &&
            (jobs.length === 0 ? (
              <span className="muted">No jobs yet.</span>
            ) : (
              jobs.map((job) => (
                <label key={job.job_id} className="checkbox-row">
                  <input
                    type="checkbox"
                    checked={jobIds.includes(job.job_id)}
                    onChange={(e) => setJobIds(e.target.checked ? [...jobIds, job.job_id] : jobIds.filter((id) => id !== job.job_id))}
                  />
                  {job.name}
                </label>
              ))
            ))}
          <span className="field-hint">Heartbeat monitors choose their channels in their own form.</span>
        </fieldset>
        {fieldError && (
          <span className="field-error" role="alert">
            {fieldError}
          </span>
        )}
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={busy || !name.trim() || !target.trim() || (secretRequired && !channelSecret.trim())}>
            Add channel
          </button>
        </div>
        {mailedTo && (
          <p className="field-hint" role="status" data-testid="verification-sent">
            We mailed a verification link to <strong>{mailedTo}</strong>. The channel receives alerts once its recipient opens the link.
          </p>
        )}
        {secret && (
          <p className="field-hint" data-testid="webhook-secret">
            Signing secret (shown once; verify the X-Cronbeam-Signature header with it): <code>{secret}</code>{' '}
            <CopyButton value={secret} label="Copy signing secret" />
          </p>
        )}
      </form>
      <div className="panel">
        {channels.length === 0 ? (
          <p className="empty-state">No alert channels yet: alerts go to your account email only.</p>
        ) : (
          <table className="data-table card-table channels-table" aria-label="Alert channels">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Target</th>
                <th scope="col">Jobs</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {channels.map((channel) => (
                <tr key={channel.channel_id}>
                  <td data-label="Name" className="strong">
                    {channel.name}
                  </td>
                  <td data-label="Type">{KIND_LABELS[channel.kind]}</td>
                  <td data-label="Target">
                    <span className="truncate url-cell" title={channel.target}>
                      {channel.target}
                    </span>
                  </td>
                  <td data-label="Jobs">{channel.job_ids === null ? 'All alerting jobs' : channel.job_ids.length === 0 ? 'None' : channel.job_ids.map(jobName).join(', ')}</td>
                  <td data-label="Status">
                    {channel.status === 'pending_verification' ? (
                      <span className="status-badge status-paused" title="Receives nothing until its recipient opens the link we mailed">
                        Pending verification
                      </span>
                    ) : (
                      <span className="status-badge status-success">Active</span>
                    )}
                  </td>
                  <td data-label="Actions">
                    <div className="row-actions">
                      {channel.status === 'pending_verification' ? (
                        <button type="button" className="button button-secondary button-small" onClick={() => resend(channel)}>
                          Resend verification<span className="visually-hidden"> to {channel.name}</span>
                        </button>
                      ) : (
                        <button type="button" className="button button-secondary button-small" onClick={() => test(channel)}>
                          Send test alert<span className="visually-hidden"> to {channel.name}</span>
                        </button>
                      )}
                      <button type="button" className="button button-small button-danger-outline" onClick={() => setDeleting(channel)}>
                        Delete<span className="visually-hidden"> {channel.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {deleting && (
        <ConfirmDeleteModal title="Delete alert channel" confirmLabel="Delete Channel" onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)}>
          <p>
            Delete <strong>{deleting.name}</strong> ({deleting.target})? Its alerts stop at once; this cannot be undone.
          </p>
        </ConfirmDeleteModal>
      )}
    </section>
  );
}
