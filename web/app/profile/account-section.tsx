import { readClaims } from '../session/id-token';
import { useSession } from '../session/session-store';
import { CopyValueButton } from './copy-to-clipboard';

/** Account Information: who is signed in, from the ID token's claims. */
export function AccountSection() {
  const claims = readClaims(useSession((s) => s.idToken));
  const rows: Array<[string, string, boolean]> = [
    ['Username', claims?.name?.trim() || claims?.email || 'User', false],
    ['Email', claims?.email ?? '', true],
    ['User ID', claims?.sub ?? '', true],
  ];
  return (
    <section className="panel panel-padded profile-section" aria-labelledby="account-title">
      <h2 id="account-title">Account Information</h2>
      <dl className="profile-fields">
        {rows.map(([label, value, copyable]) => (
          <div key={label} className="profile-field">
            <dt>{label}</dt>
            <dd>
              <span className={label === 'User ID' ? 'mono' : undefined} data-testid={`account-${label.toLowerCase().replace(' ', '-')}`}>
                {value}
              </span>
              {copyable && value && <CopyValueButton value={value} what={label} />}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
