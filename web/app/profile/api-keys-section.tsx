import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { API_KEY_MESSAGES, type ApiKeySummary, type GeneratedApiKey } from '@cronbeam/shared/jobs/api-key-types';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { withRecentAuthentication } from '../account-security/recent-authentication';
import { billingApi } from '../billing/billing-api';
import { formatUtc } from '../ui/format';
import { Modal } from '../ui/modal';
import { notify } from '../ui/toasts';
import { CopyValueButton } from './copy-to-clipboard';

const is401 = (error: unknown) => error instanceof ApiRequestError && error.status === 401;
const is404 = (error: unknown) => error instanceof ApiRequestError && error.status === 404;

/** The confirmation asked before a key is deleted. */
export function deleteKeyQuestion(name: string): string {
  return `Are you sure you want to delete the API key "${name}"? This action cannot be undone.`;
}

/** API Keys: generate with a name (the key and user id shown once), list, copy, delete. */
export function ApiKeysSection() {
  const [keys, setKeys] = useState<ApiKeySummary[] | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<GeneratedApiKey | null>(null);

  const load = useCallback(async () => {
    try {
      setKeys(await billingApi.listApiKeys());
      setLoadError(null);
    } catch (error) {
      if (is401(error)) return;
      if (is404(error)) setUnavailable(true);
      else setLoadError(`Failed to load API keys: ${errorMessage(error)}`);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const generate = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNameError(API_KEY_MESSAGES.nameRequired);
      return;
    }
    setBusy(true);
    try {
      const key = await withRecentAuthentication(() => billingApi.generateApiKey(name.trim()));
      setNaming(false);
      setName('');
      setCreated(key);
      await load();
    } catch (error) {
      if (!is401(error)) {
        setNaming(false);
        notify.error(is404(error) ? 'API key generation is not available in this environment' : `Failed to generate API key: ${errorMessage(error)}`);
      }
    } finally {
      setBusy(false);
    }
  };

  const remove = async (key: ApiKeySummary) => {
    if (!window.confirm(deleteKeyQuestion(key.name))) return;
    try {
      await billingApi.deleteApiKey(key.key_id);
      notify.success(`API key "${key.name}" deleted`);
      await load();
    } catch (error) {
      if (!is401(error)) notify.error(`Failed to delete API key: ${errorMessage(error)}`);
    }
  };

  if (unavailable) return null;
  return (
    <section className="panel panel-padded profile-section" aria-labelledby="api-keys-title">
      <div className="section-header">
        <h2 id="api-keys-title">API Keys</h2>
        <button
          type="button"
          className="button button-primary button-small"
          onClick={() => {
            setNameError(null);
            setNaming(true);
          }}
        >
          Generate New API Key
        </button>
      </div>
      <p className="muted">
        Call the REST API with the key in <code>X-API-Key</code> and your user ID in <code>X-User-ID</code>. See the{' '}
        <a href="/api-documentation" target="_blank" rel="noreferrer">
          API documentation
        </a>
        .
      </p>
      {loadError && (
        <div className="alert alert-error" role="alert">
          {loadError}
        </div>
      )}
      {keys && keys.length === 0 && <p className="empty-state">No API keys yet.</p>}
      {keys && keys.length > 0 && (
        <div className="table-scroll">
          <table className="data-table card-table" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.key_id}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Key" className="mono">
                    {key.prefix}…
                  </td>
                  <td data-label="Created">{formatUtc(key.created_at)}</td>
                  <td data-label="Last used">{formatUtc(key.last_used_at, 'Never')}</td>
                  <td data-label="Actions">
                    <button type="button" className="button button-danger-outline button-small" onClick={() => void remove(key)} aria-label={`Delete API key ${key.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {naming && (
        <Modal title="Generate New API Key" onClose={() => setNaming(false)}>
          <form className="form" onSubmit={(e) => void generate(e)} noValidate>
            <div className="field">
              <label htmlFor="api-key-name">Key name</label>
              <input
                id="api-key-name"
                value={name}
                maxLength={100}
                placeholder="e.g. CI pipeline"
                onChange={(e) => {
                  setName(e.target.value);
                  setNameError(null);
                }}
                aria-invalid={nameError !== null}
                aria-describedby={nameError ? 'api-key-name-error' : undefined}
              />
              {nameError && (
                <p id="api-key-name-error" className="field-error" role="alert">
                  {nameError}
                </p>
              )}
            </div>
            <div className="modal-actions">
              <button type="button" className="button button-secondary" onClick={() => setNaming(false)}>
                Cancel
              </button>
              <button type="submit" className="button button-primary" disabled={busy}>
                {busy ? 'Generating...' : 'Generate'}
              </button>
            </div>
          </form>
        </Modal>
      )}

      {created && (
        <Modal
          title="Your new API key"
          onClose={() => setCreated(null)}
          actions={
            <button type="button" className="button button-primary" onClick={() => setCreated(null)}>
              I have saved it
            </button>
          }
        >
          <div className="alert alert-info" role="status">
            Copy the key now: it is shown only once.
          </div>
          <dl className="profile-fields">
            <div className="profile-field">
              <dt>API key</dt>
              <dd>
                <code className="secret-value" data-testid="new-api-key">
                  {created.api_key}
                </code>
                <CopyValueButton value={created.api_key} what="API key" />
              </dd>
            </div>
            <div className="profile-field">
              <dt>User ID</dt>
              <dd>
                <code className="secret-value" data-testid="new-api-key-user-id">
                  {created.user_id}
                </code>
                <CopyValueButton value={created.user_id} what="User ID" />
              </dd>
            </div>
          </dl>
        </Modal>
      )}
    </section>
  );
}
