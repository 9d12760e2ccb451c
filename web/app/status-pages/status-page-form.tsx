import type { Job } from '@cronbeam/shared/jobs/job-types';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import { STATUS_PAGE_LIMITS, type StatusPage } from '@cronbeam/shared/notifications/status-pages';
import { useId, useState, type FormEvent } from 'react';
import { ApiRequestError, errorMessage } from '../api/api-error';
import { statusPagesApi, type StatusPageInput } from '../api/status-pages-api';
import { notify } from '../ui/toasts';

type FieldErrors = Partial<Record<'slug' | 'title' | 'custom_domain' | 'items' | 'form', string>>;

interface StatusPageFormProps {
  /** The page to edit; none publishes a new one. */
  page?: StatusPage;
  jobs: Job[];
  monitors: Monitor[];
  onSaved(page: StatusPage): void;
  onCancel(): void;
}

/** The key of a job or monitor in the form's choice: one list holds both. */
const jobKey = (id: string) => `job:${id}`;
const monitorKey = (id: string) => `monitor:${id}`;
const tagKey = (tag: string) => `tag:${tag}`;

/**
 * Publishes or edits a status page: its address (slug and, optionally, a
 * custom domain), its title, and which jobs and monitors it shows, each
 * under its own name or a public label. The page never shows their URLs,
 * headers or ids.
 */
export function StatusPageForm({ page, jobs, monitors, onSaved, onCancel }: StatusPageFormProps) {
  const ids = useId();
  const initial = new Map((page?.items ?? []).map((i) => [i.job_id ? jobKey(i.job_id) : i.monitor_id ? monitorKey(i.monitor_id) : tagKey(i.tag!), i.label ?? '']));
  const [slug, setSlug] = useState(page?.slug ?? '');
  const [title, setTitle] = useState(page?.title ?? '');
  const [domain, setDomain] = useState(page?.custom_domain ?? '');
  // Insertion order is the order on the page: the items kept first, then those ticked.
  const [chosen, setChosen] = useState<Map<string, string>>(initial);
  const [newTag, setNewTag] = useState('');
  const tags = [...chosen.keys()].filter((k) => k.startsWith('tag:')).map((k) => k.slice('tag:'.length));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const toggle = (key: string, on: boolean) => {
    const next = new Map(chosen);
    if (on) next.set(key, '');
    else next.delete(key);
    setChosen(next);
  };
  const setLabel = (key: string, label: string) => setChosen(new Map(chosen).set(key, label));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const items = [...chosen].map(([key, label]) => {
      const kind = key.slice(0, key.indexOf(':'));
      const id = key.slice(key.indexOf(':') + 1);
      const shown = label.trim() === '' ? null : label.trim();
      if (kind === 'tag') return { tag: id, label: null };
      return kind === 'job' ? { job_id: id, label: shown } : { monitor_id: id, label: shown };
    });
    const input: StatusPageInput = { slug: slug.trim(), title: title.trim(), custom_domain: domain.trim() === '' ? null : domain.trim(), items };
    setBusy(true);
    setErrors({});
    try {
      const saved = page ? await statusPagesApi.update(page.page_id, input) : await statusPagesApi.create(input);
      notify.success(`Status page '${saved.title}' ${page ? 'updated' : 'published'}`);
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiRequestError && error.fieldIssues.length) {
        const found: FieldErrors = {};
        for (const issue of error.fieldIssues) {
          const field = (['slug', 'title', 'custom_domain', 'items'] as const).find((f) => f === issue.loc[1]) ?? 'form';
          found[field] ??= issue.msg;
        }
        setErrors(found);
      } else setErrors({ form: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: keyof FieldErrors) =>
    errors[field] ? (
      <span className="field-error" role="alert">
        {errors[field]}
      </span>
    ) : null;

  const choice = (key: string, name: string, kind: string) => (
    <li key={key} className="status-item-choice">
      <label className="checkbox-row">
        <input type="checkbox" checked={chosen.has(key)} onChange={(e) => toggle(key, e.target.checked)} />
        {name} <span className="muted">({kind})</span>
      </label>
      {chosen.has(key) && (
        <input
          aria-label={`Public name of ${name}`}
          placeholder={name}
          maxLength={STATUS_PAGE_LIMITS.labelMaxLength}
          value={chosen.get(key)}
          onChange={(e) => setLabel(key, e.target.value)}
        />
      )}
    </li>
  );

  return (
    <form className="panel panel-padded form status-page-form" onSubmit={submit} noValidate aria-label={page ? `Edit status page ${page.title}` : 'New status page'}>
      <h2>{page ? `Edit status page '${page.title}'` : 'New status page'}</h2>
      <div className="field">
        <label htmlFor={`${ids}-title`}>Title</label>
        <input id={`${ids}-title`} value={title} onChange={(e) => setTitle(e.target.value)} aria-invalid={Boolean(errors.title)} maxLength={STATUS_PAGE_LIMITS.titleMaxLength} />
        {fieldError('title')}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-slug`}>Address</label>
        <input id={`${ids}-slug`} value={slug} onChange={(e) => setSlug(e.target.value)} aria-invalid={Boolean(errors.slug)} aria-describedby={`${ids}-slug-hint`} />
        <span id={`${ids}-slug-hint`} className="field-hint">
          The page is published at /status/{slug.trim().toLowerCase() || 'your-address'}: lowercase letters, digits and hyphens.
        </span>
        {fieldError('slug')}
      </div>
      <div className="field">
        <label htmlFor={`${ids}-domain`}>Custom domain (optional)</label>
        <input id={`${ids}-domain`} value={domain} onChange={(e) => setDomain(e.target.value)} placeholder="status.example.com" aria-invalid={Boolean(errors.custom_domain)} aria-describedby={`${ids}-domain-hint`} />
        <span id={`${ids}-domain-hint`} className="field-hint">
          Point a CNAME record of this host at this service; the page is then served at its root.
        </span>
        {fieldError('custom_domain')}
      </div>
      <fieldset className="field">
        <legend className="field-label">Shown on the page</legend>
        <span className="field-hint">Their state, 90-day uptime and incidents: never their URLs, headers or responses.</span>
        {jobs.length + monitors.length === 0 ? (
          <span className="muted">No jobs or monitors yet.</span>
        ) : (
          <ul className="status-item-choices">
            {jobs.map((job) => choice(jobKey(job.job_id), job.name, 'job'))}
            {monitors.map((monitor) => choice(monitorKey(monitor.monitor_id), monitor.name, 'monitor'))}
          </ul>
        )}
        <ul className="status-item-choices">
          {tags.map((tag) => (
            <li key={tagKey(tag)} className="status-item-choice">
              <label className="checkbox-row">
                <input type="checkbox" checked onChange={() => toggle(tagKey(tag), false)} />
                Everything tagged {tag}
              </label>
            </li>
          ))}
        </ul>
        <div className="status-item-choice">
          <label htmlFor={`${ids}-tag`} className="visually-hidden">
            Tag to show
          </label>
          <input id={`${ids}-tag`} value={newTag} onChange={(e) => setNewTag(e.target.value)} placeholder="a tag, e.g. billing" />
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={!newTag.trim()}
            onClick={() => {
              toggle(tagKey(newTag.trim().toLowerCase()), true);
              setNewTag('');
            }}
          >
            Add Tag
          </button>
        </div>
        {fieldError('items')}
      </fieldset>
      {fieldError('form')}
      <div className="button-row">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy || !title.trim() || !slug.trim()}>
          {busy ? 'Saving...' : page ? 'Save Status Page' : 'Publish Status Page'}
        </button>
      </div>
    </form>
  );
}
