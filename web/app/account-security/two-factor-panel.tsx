import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { TotpSetupResponse, TwoFactorStatus } from '@cronbeam/shared/auth/mfa-schemas';
import { errorMessage } from '../api/api-error';
import { cleanAuthMessage } from '../api/error-messages';
import { FormAlert } from '../auth/auth-layout';
import { TotpQrCode } from '../auth/totp-qr-code';
import { notify } from '../ui/toasts';
import { accountSecurityApi } from './account-security-api';
import { withRecentAuthentication } from './recent-authentication';

type Mode = { kind: 'idle' } | { kind: 'setup'; setup: TotpSetupResponse } | { kind: 'disable' } | { kind: 'regenerate' };

/** The recovery codes, shown once right after they are made. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <div className="recovery-codes" data-testid="recovery-codes">
      <FormAlert kind="success">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator app. They will not be shown
        again.
      </FormAlert>
      {codes.length === 0 ? (
        <p className="muted">Your identity provider does not issue recovery codes.</p>
      ) : (
        <ol className="mono recovery-code-list">
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
      )}
      <div className="button-row">
        {codes.length > 0 && (
          <button
            type="button"
            className="button button-secondary"
            onClick={() =>
              void navigator.clipboard.writeText(codes.join('\n')).then(
                () => notify.success('Recovery codes copied to clipboard'),
                () => notify.error('Failed to copy to clipboard'),
              )
            }
          >
            Copy Codes
          </button>
        )}
        <button type="button" className="button button-primary" onClick={onDone}>
          I Saved Them
        </button>
      </div>
    </div>
  );
}

/** A code from the app, or (with the toggle) a recovery code: what turning off and regenerating ask for. */
function ProofForm({ action, onSubmit, onCancel }: { action: string; onSubmit(proof: { code?: string; recovery_code?: string }): Promise<void>; onCancel(): void }) {
  const [value, setValue] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(recovery ? { recovery_code: value.trim() } : { code: value.trim() });
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)));
      setBusy(false);
    }
  };
  return (
    <form className="form form-inline-block" onSubmit={submit} noValidate>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      <div className="field">
        <label htmlFor={`proof-${action}`}>{recovery ? 'Recovery code' : 'Code from your authenticator app'}</label>
        <input id={`proof-${action}`} type="text" autoComplete="one-time-code" inputMode={recovery ? 'text' : 'numeric'} value={value} onChange={(e) => setValue(e.target.value)} />
      </div>
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={busy || !value.trim()}>
          {busy ? 'Checking...' : action}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="link-button" onClick={() => setRecovery(!recovery)}>
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
      </div>
    </form>
  );
}

/** Two-factor sign-in: turn on with a QR code and a confirming code, turn off, regenerate recovery codes. */
export function TwoFactorPanel({ onChanged }: { onChanged(): void }) {
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setStatus(await accountSecurityApi.status());
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (failure) {
      setError(cleanAuthMessage(errorMessage(failure)));
    } finally {
      setBusy(false);
    }
  };

  const startSetup = () => run(async () => setMode({ kind: 'setup', setup: await withRecentAuthentication(() => accountSecurityApi.setUpTotp()) }));
  const enable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { recovery_codes } = await withRecentAuthentication(() => accountSecurityApi.enableTotp(code.trim()));
      setCodes(recovery_codes);
      setMode({ kind: 'idle' });
      setCode('');
      notify.success('Two-factor authentication is on');
      await load();
      onChanged();
    });
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;

  return (
    <div className="security-block" aria-labelledby="two-factor-title">
      <h3 id="two-factor-title">Two-factor authentication</h3>
      {error && <FormAlert kind="error">{error}</FormAlert>}
      {!status ? (
        <div className="spinner" role="status" aria-label="Loading two-factor status" />
      ) : status.totp_enabled ? (
        <>
          <p data-testid="two-factor-status">
            <span className="badge badge-success">On</span> · Signing in asks for a code from your authenticator app.{' '}
            {status.recovery_codes_left} recovery code{status.recovery_codes_left === 1 ? '' : 's'} left.
          </p>
          {mode.kind === 'disable' ? (
            <ProofForm
              action="Turn Off"
              onCancel={() => setMode({ kind: 'idle' })}
              onSubmit={async (proof) => {
                await accountSecurityApi.disableTotp(proof);
                setMode({ kind: 'idle' });
                notify.success('Two-factor authentication is off');
                await load();
                onChanged();
              }}
            />
          ) : mode.kind === 'regenerate' ? (
            <ProofForm
              action="Regenerate Codes"
              onCancel={() => setMode({ kind: 'idle' })}
              onSubmit={async (proof) => {
                const { recovery_codes } = await accountSecurityApi.regenerateRecoveryCodes(proof);
                setMode({ kind: 'idle' });
                setCodes(recovery_codes);
                await load();
              }}
            />
          ) : (
            <div className="button-row">
              <button type="button" className="button button-secondary" onClick={() => setMode({ kind: 'regenerate' })}>
                Regenerate Recovery Codes
              </button>
              <button type="button" className="button button-danger" onClick={() => setMode({ kind: 'disable' })}>
                Turn Off Two-Factor
              </button>
            </div>
          )}
        </>
      ) : mode.kind === 'setup' ? (
        <form className="form" onSubmit={enable} noValidate>
          <TotpQrCode uri={mode.setup.otpauth_uri} secret={mode.setup.secret} />
          <div className="field">
            <label htmlFor="enable-code">Code from your authenticator app</label>
            <input id="enable-code" type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
          </div>
          <div className="button-row">
            <button type="submit" className="button button-primary" disabled={busy || !code.trim()}>
              {busy ? 'Checking...' : 'Turn On'}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setMode({ kind: 'idle' })}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p data-testid="two-factor-status">
            <span className="badge">Off</span> · Add a code from an authenticator app to your sign-in, so a stolen password alone is not enough.
          </p>
          <button type="button" className="button button-primary" onClick={() => void startSetup()} disabled={busy}>
            Set Up Two-Factor
          </button>
        </>
      )}
    </div>
  );
}
