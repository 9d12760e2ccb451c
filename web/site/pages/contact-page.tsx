import { CONTACT_LIMITS, CONTACT_MESSAGES, checkContactMessage, type ContactField } from '@cronbeam/shared/site/contact-rules';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { apiBase } from '../../app/platform/platform';
import { SITE_FACTS } from '../site-facts';
import { SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

type Status = { kind: 'idle' | 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string };

/** Reads the server's {"detail": ...}: a text, or 422 issues naming the fields. */
async function readFailure(res: Response): Promise<{ message: string; fields: Partial<Record<string, string>> }> {
  const body = (await res.json().catch(() => null)) as { detail?: unknown } | null;
  const detail = body?.detail;
  if (Array.isArray(detail)) {
    const fields: Partial<Record<string, string>> = {};
    for (const issue of detail as Array<{ loc?: unknown[]; msg?: string }>) fields[String(issue.loc?.[1] ?? 'body')] = issue.msg;
    return { message: 'Please fix the errors below.', fields };
  }
  return { message: typeof detail === 'string' ? detail : 'Your message could not be sent. Please try again.', fields: {} };
}

function Field({ name, label, error, children }: { name: ContactField; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="site-field">
      <label htmlFor={`contact-${name}`}>{label}</label>
      {children}
      {error ? (
        <span className="site-field-error" id={`contact-${name}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

function ContactPage() {
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const subject = useRef<HTMLInputElement>(null);

  // `?subject=` (the dashboard's feedback and support links) fills the subject in; after hydration, as the prerendered page has none.
  useEffect(() => {
    const given = new URLSearchParams(window.location.search).get('subject');
    if (given && subject.current && !subject.current.value) subject.current.value = given.slice(0, CONTACT_LIMITS.subjectMaxLength);
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = Object.fromEntries(['name', 'email', 'subject', 'message'].map((k) => [k, String(form.get(k) ?? '')]));
    const checked = checkContactMessage(input);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setStatus({ kind: 'sending' });
    try {
      const res = await fetch(`${apiBase()}/site/contact`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(checked.value),
      });
      if (res.ok) {
        setStatus({ kind: 'sent' });
        return;
      }
      const failure = await readFailure(res);
      setErrors(failure.fields);
      setStatus({ kind: 'failed', message: failure.message });
    } catch {
      setStatus({ kind: 'failed', message: 'Your message could not be sent. Please check your connection and try again.' });
    }
  };

  const describedBy = (name: ContactField) => (errors[name] ? `contact-${name}-error` : undefined);

  return (
    <article className="site-article">
      <h1>Contact Us</h1>
      <p className="site-lead">
        Questions about your jobs, your plan, a refund or the API? Write to us here; we answer within {SITE_FACTS.contactResponseHours} hours.
      </p>
      <p>
        Paying customers get email support with a response time that depends on the plan: within 24 hours on Basic, within 4 hours in business hours on
        Pro. For refunds, include the email address of your account and the date of the payment.
      </p>
      {status.kind === 'sent' ? (
        <p className="site-notice" role="status">
          {CONTACT_MESSAGES.sent}
        </p>
      ) : (
        <form className="site-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Contact form">
          <Field name="name" label="Your name" error={errors.name}>
            <input
              id="contact-name"
              name="name"
              autoComplete="name"
              maxLength={CONTACT_LIMITS.nameMaxLength}
              aria-invalid={Boolean(errors.name)}
              aria-describedby={describedBy('name')}
            />
          </Field>
          <Field name="email" label="Email address" error={errors.email}>
            <input
              id="contact-email"
              name="email"
              type="email"
              autoComplete="email"
              maxLength={CONTACT_LIMITS.emailMaxLength}
              aria-invalid={Boolean(errors.email)}
              aria-describedby={describedBy('email')}
            />
          </Field>
          <Field name="subject" label="Subject (optional)" error={errors.subject}>
            <input
              ref={subject}
              id="contact-subject"
              name="subject"
              maxLength={CONTACT_LIMITS.subjectMaxLength}
              aria-invalid={Boolean(errors.subject)}
              aria-describedby={describedBy('subject')}
            />
          </Field>
          <Field name="message" label="Message" error={errors.message}>
            <textarea
              id="contact-message"
              name="message"
              maxLength={CONTACT_LIMITS.messageMaxLength}
              aria-invalid={Boolean(errors.message)}
              aria-describedby={describedBy('message')}
            />
          </Field>
          {status.kind === 'failed' ? (
            <p className="site-notice site-notice-error" role="alert">
              {status.message}
            </p>
          ) : null}
          <div>
            <button className="button button-primary button-large" type="submit" disabled={status.kind === 'sending'}>
              {status.kind === 'sending' ? 'Sending...' : 'Send message'}
            </button>
          </div>
        </form>
      )}
    </article>
  );
}

const page: SitePage = {
  meta: {
    path: '/contact',
    title: `Contact Us | ${SITE_NAME}`,
    description: `Write to the ${SITE_NAME} team about jobs, plans, refunds or the API. We answer within ${SITE_FACTS.contactResponseHours} hours.`,
  },
  Page: ContactPage,
};
export default page;
