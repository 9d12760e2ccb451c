import { computeMonthlyPrice, estimateMonthlyCost, VOLUME_MONTHLY_PRICE } from '@cronbeam/shared/deployments/cost-estimate';
import { DEPLOYMENT_LIMITS, deploymentRequestSchema } from '@cronbeam/shared/deployments/deployment-rules';
import type { Deployment, DeploymentLimitExceeded } from '@cronbeam/shared/deployments/deployment-types';
import { DEFAULT_REGION, DEPLOYMENT_REGIONS, findRegion, isCostlyRegion } from '@cronbeam/shared/deployments/regions';
import { PLAN_LIMITS, isPlanId } from '@cronbeam/shared/plans';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { scrubSecrets } from '../api/error-messages';
import { useDashboard } from '../dashboard/dashboard-store';
import { notify } from '../ui/toasts';
import { DeploymentList } from './deployment-list';
import { DeploymentQuotaModal } from './deployment-quota-modal';
import { deploymentLimitOf, deploymentsApi } from './deployments-api';
import { useDeploymentEvents } from './use-deployment-events';
import './deployments.css';

type Field = 'fly_token' | 'username' | 'password' | 'region' | 'ram_mb' | 'app_name' | 'deployment_name';
type Errors = Partial<Record<Field, string>>;

interface FormValues {
  fly_token: string;
  username: string;
  password: string;
  region: string;
  ram_mb: number;
  app_name: string;
  deployment_name: string;
}

const INITIAL: FormValues = { fly_token: '', username: '', password: '', region: DEFAULT_REGION, ram_mb: DEPLOYMENT_LIMITS.ramDefaultMb, app_name: '', deployment_name: '' };
/** While a deployment is provisioning the list is also re-read this often, in case the event stream is down. */
const PROVISIONING_POLL_MS = 3000;

function validate(values: FormValues): Errors {
  const result = deploymentRequestSchema.safeParse(values);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

const COMPUTE_ROWS: Array<[string, string]> = [
  ['up to 256 MB', '$1.94'],
  ['up to 512 MB', '$3.19'],
  ['up to 1 GB', '$5.70'],
  ['up to 2 GB', '$10.70'],
  ['up to 4 GB', '$11.39 + $5 per GB above 2 GB'],
  ['above 4 GB', '$21.40 + $5 per GB above 4 GB'],
];

const FACTOR_ROWS: Array<[number, string]> = [
  [1, 'Main US regions and Canada'],
  [1.02, 'Most European regions'],
  [1.03, 'arn'],
  [1.04, 'nrt, hkg, sin, syd'],
  [1.05, 'bom'],
  [1.1, 'jnb, qro, gdl'],
  [1.15, 'scl, bog'],
  [1.25, 'gru, gig'],
];

/** The Self-Host N8N section: the deployment form, the cost estimate, notes, and the user's deployments. */
export default function DeployN8nSection() {
  const stats = useDashboard((s) => s.stats);
  const reloadStats = useDashboard((s) => s.load);
  const [values, setValues] = useState<FormValues>(INITIAL);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [limit, setLimit] = useState<DeploymentLimitExceeded | null>(null);
  const [deployments, setDeployments] = useState<Deployment[]>([]);

  const upsert = useCallback((deployment: Deployment) => {
    setDeployments((current) => {
      const previous = current.find((d) => d.deployment_id === deployment.deployment_id);
      if (previous?.status === 'provisioning' && deployment.status === 'failed') notify.error(`Deployment failed: ${scrubSecrets(deployment.error ?? '')}`);
      if (previous?.status === 'provisioning' && deployment.status === 'live') notify.success(`n8n is live at ${deployment.url}`);
      const others = current.filter((d) => d.deployment_id !== deployment.deployment_id);
      return [deployment, ...others].sort((a, b) => b.created_at.localeCompare(a.created_at));
    });
  }, []);

  const refresh = useCallback(async () => {
    try {
      const list = await deploymentsApi.list();
      for (const d of list) upsert(d);
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.status === 401)) notify.error(errorMessage(error));
    }
  }, [upsert]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useDeploymentEvents(upsert);

  const provisioning = deployments.some((d) => d.status === 'provisioning');
  useEffect(() => {
    if (!provisioning) return;
    const timer = setInterval(() => void refresh(), PROVISIONING_POLL_MS);
    return () => clearInterval(timer);
  }, [provisioning, refresh]);

  const plan = stats?.plan && isPlanId(stats.plan) ? stats.plan : 'free';
  const quota = stats?.n8n_deployments_quota ?? PLAN_LIMITS[plan].deploymentsPerMonth;
  const used = stats?.n8n_deployments_used ?? 0;
  const quotaUsedUp = used >= quota;

  const estimate = useMemo(() => estimateMonthlyCost(values.ram_mb, values.region), [values.ram_mb, values.region]);
  const region = findRegion(values.region);

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field]) setErrors((current) => ({ ...current, [field]: validate(next)[field] }));
  };
  const check = (field: Field) => setErrors((current) => ({ ...current, [field]: validate(values)[field] }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitting(true);
    try {
      const started = await deploymentsApi.start(values);
      notify.success(started.message);
      // The token and password leave the form as soon as the server has them.
      setValues((current) => ({ ...current, fly_token: '', password: '' }));
      upsert(await deploymentsApi.get(started.deployment_id));
      void reloadStats('refresh');
    } catch (error) {
      const quotaDetail = deploymentLimitOf(error);
      if (quotaDetail) setLimit(quotaDetail);
      else if (error instanceof ApiRequestError && error.fieldIssues.length > 0) {
        const fromServer: Errors = {};
        for (const issue of error.fieldIssues) fromServer[issue.loc[1] as Field] ??= issue.msg;
        setErrors(fromServer);
      } else notify.error(`Failed to start deployment: ${errorMessage(error)}`);
    } finally {
      setSubmitting(false);
    }
  };

  const fieldError = (field: Field) =>
    errors[field] ? (
      <span id={`deploy-${field}-error`} className="field-error">
        {errors[field]}
      </span>
    ) : null;
  const described = (field: Field) => ({ 'aria-invalid': Boolean(errors[field]), 'aria-describedby': errors[field] ? `deploy-${field}-error` : undefined });

  return (
    <section aria-labelledby="deploy-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="deploy-title">Self-Host N8N</h1>
          <p className="muted">Deploy your own n8n instance on your Fly.io account. We provision everything and email you the link when it is live.</p>
        </div>
        <span className="muted" data-testid="deploy-quota">
          Deployments this month: {used} / {quota}
        </span>
      </div>

      <div className="deploy-grid">
        <form className="form panel panel-padded" onSubmit={submit} noValidate aria-label="Deploy n8n">
          <div className="field">
            <label htmlFor="deploy-fly_token">Fly.io API token</label>
            <input
              id="deploy-fly_token"
              type="password"
              autoComplete="off"
              value={values.fly_token}
              onChange={(e) => set('fly_token', e.target.value)}
              onBlur={() => check('fly_token')}
              {...described('fly_token')}
            />
            <span className="field-hint">
              Create one with <code>fly tokens create org</code> or in the Fly.io dashboard. It is deleted after creation.
            </span>
            {fieldError('fly_token')}
          </div>
          <div className="form-grid">
            <div className="field">
              <label htmlFor="deploy-username">n8n username</label>
              <input id="deploy-username" autoComplete="off" value={values.username} onChange={(e) => set('username', e.target.value)} onBlur={() => check('username')} {...described('username')} />
              {fieldError('username')}
            </div>
            <div className="field">
              <label htmlFor="deploy-password">n8n password</label>
              <input
                id="deploy-password"
                type="password"
                autoComplete="new-password"
                value={values.password}
                onChange={(e) => set('password', e.target.value)}
                onBlur={() => check('password')}
                {...described('password')}
              />
              {fieldError('password')}
            </div>
          </div>
          <div className="form-grid">
            <div className="field">
              <label htmlFor="deploy-app_name">Subdomain (optional)</label>
              <input
                id="deploy-app_name"
                autoComplete="off"
                placeholder="my-n8n"
                value={values.app_name}
                onChange={(e) => set('app_name', e.target.value)}
                onBlur={() => check('app_name')}
                {...described('app_name')}
              />
              <span className="field-hint">{values.app_name ? `https://${values.app_name}.fly.dev` : 'A name is generated when empty.'}</span>
              {fieldError('app_name')}
            </div>
            <div className="field">
              <label htmlFor="deploy-deployment_name">Deployment name (optional)</label>
              <input
                id="deploy-deployment_name"
                autoComplete="off"
                value={values.deployment_name}
                onChange={(e) => set('deployment_name', e.target.value)}
                onBlur={() => check('deployment_name')}
                {...described('deployment_name')}
              />
              {fieldError('deployment_name')}
            </div>
          </div>
          <div className="field">
            <label htmlFor="deploy-region">Region</label>
            <select id="deploy-region" value={values.region} onChange={(e) => set('region', e.target.value)} {...described('region')}>
              {DEPLOYMENT_REGIONS.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.name} ({r.code})
                </option>
              ))}
            </select>
            {fieldError('region')}
            {isCostlyRegion(values.region) && (
              <span className="field-warning" role="status" data-testid="cost-warning">
                Fly.io prices in {region?.name ?? values.region} are {Math.round(((region?.priceFactor ?? 1) - 1) * 100)}% above the main US regions. Pick a nearby
                region if cost matters.
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor="deploy-ram_mb">
              RAM: <strong>{values.ram_mb} MB</strong>
              {values.ram_mb === DEPLOYMENT_LIMITS.ramDefaultMb && <span className="muted"> (recommended)</span>}
            </label>
            <input
              id="deploy-ram_mb"
              type="range"
              min={DEPLOYMENT_LIMITS.ramMinMb}
              max={DEPLOYMENT_LIMITS.ramMaxMb}
              step={DEPLOYMENT_LIMITS.ramStepMb}
              value={values.ram_mb}
              onChange={(e) => set('ram_mb', Number(e.target.value))}
              {...described('ram_mb')}
            />
            <span className="field-hint">
              {DEPLOYMENT_LIMITS.ramMinMb} MB – {DEPLOYMENT_LIMITS.ramMaxMb} MB; 2048 MB is recommended for most workflows.
            </span>
            {fieldError('ram_mb')}
          </div>
          <div className="button-row form-actions">
            <button type="submit" className="button button-primary" disabled={submitting || quotaUsedUp}>
              {submitting ? 'Deploying...' : 'Deploy'}
            </button>
            {quotaUsedUp && <span className="muted">This month's deployments are used up.</span>}
          </div>
        </form>

        <aside className="panel panel-padded deploy-estimate" aria-label="Cost estimate">
          <h2>Estimated cost</h2>
          <p className="deploy-estimate-total" data-testid="cost-estimate">
            ${estimate.total.toFixed(2)} <span className="muted">/ month</span>
          </p>
          <p className="muted">
            Compute ${computeMonthlyPrice(values.ram_mb).toFixed(2)} + 5 GB volume ${VOLUME_MONTHLY_PRICE.toFixed(2)}, × {estimate.priceFactor} for{' '}
            {region?.name ?? values.region}. Billed by Fly.io to your account.
          </p>
          <table className="data-table compact-table" aria-label="Compute prices">
            <thead>
              <tr>
                <th>RAM</th>
                <th>Compute per month</th>
              </tr>
            </thead>
            <tbody>
              {COMPUTE_ROWS.map(([ram, price]) => (
                <tr key={ram}>
                  <td>{ram}</td>
                  <td>{price}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="data-table compact-table" aria-label="Region price factors">
            <thead>
              <tr>
                <th>Factor</th>
                <th>Regions</th>
              </tr>
            </thead>
            <tbody>
              {FACTOR_ROWS.map(([factor, regions]) => (
                <tr key={factor}>
                  <td>× {factor}</td>
                  <td>{regions}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Notes</h3>
          <ul className="deploy-notes">
            <li>Your Fly.io token is used only to create the instance and is deleted after creation; to delete the instance later you paste it again.</li>
            <li>n8n is protected by basic auth with the username and password above. Cronbeam does not keep the password.</li>
            <li>Provisioning takes a few minutes. You can follow every step below, and we email you the link when the instance is live.</li>
            <li>Your workflows are kept on a 5 GB volume in the chosen region.</li>
          </ul>
          <p className="muted deploy-disclaimer">
            Disclaimer: the estimate follows Fly.io's published prices and may differ from your bill; Fly.io sets and charges the actual cost. The
            instance runs on your own account and you are responsible for it. Cronbeam is not affiliated with Fly.io or n8n.
          </p>
        </aside>
      </div>

      <h2 className="deploy-list-title">Your deployments</h2>
      <DeploymentList
        deployments={deployments}
        onChanged={(d) => {
          upsert(d);
          void reloadStats('refresh');
        }}
      />
      {limit && <DeploymentQuotaModal limit={limit} onClose={() => setLimit(null)} />}
    </section>
  );
}
