import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { CodeBlock } from '../layout/code-block';
import { createJobCurl } from '../samples';
import { apiOrigin, SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

const STEPS = [
  ['Sign Up', 'Create a free account; no credit card needed.'],
  ['Create a Job', 'Give it a name from the dashboard or the API.'],
  ['Paste URL', 'The endpoint to call, its method, headers and body.'],
  ['Set Schedule', 'A 5-field cron expression, in UTC or a time zone you choose.'],
  ['Sleep Well', 'Runs are logged, retried and reported by email.'],
] as const;

const FEATURES = [
  ['Any HTTP endpoint', 'GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS with your own headers and request body.'],
  ['Cron schedules', 'Standard 5-field cron expressions in UTC or any IANA time zone, from every minute to once a year, with a plain-words preview.'],
  ['Run logs', 'Every run keeps its time, status code, duration and the start of the response body.'],
  ['Automatic retries', 'Timeouts, 5xx answers and connection errors are retried up to 3 times with exponential backoff.'],
  ['Failure emails', 'Turn on notify on failure and get an email when a run fails for good.'],
  ['Full control', 'Edit, pause, resume, run now or delete a job at any time; paused jobs keep their settings.'],
  ['REST API', 'Create and manage jobs from code with an API key; an OpenAPI document describes every endpoint.'],
  ['Integrations', 'An MCP server for AI assistants, an n8n community node and self-hosted n8n deployments.'],
] as const;

const USE_CASES = [
  {
    title: 'Webhooks and APIs',
    items: ['Call a webhook every few minutes', 'Refresh caches and sitemaps', 'Send daily digests through your own API'],
    guide: ['/guides/webhooks', 'Scheduled webhooks guide'],
  },
  {
    title: 'CI/CD and DevOps',
    items: ['Start nightly builds on exact times', 'Trigger deploy hooks', 'Run cleanup endpoints'],
    guide: ['/guides/ci-cd', 'Scheduled CI/CD guide'],
  },
  {
    title: 'Data teams',
    items: ['Start ETL and sync endpoints', 'Keep the last responses of every step', 'Get an email when a step fails'],
    guide: ['/guides/data-pipeline-monitoring', 'Data pipeline guide'],
  },
  {
    title: 'AI agents and automation',
    items: ['Let an assistant schedule jobs over MCP', 'Run n8n workflows on a schedule', 'Host your own n8n instance'],
    guide: ['/guides/mcp-introduction', 'MCP introduction'],
  },
] as const;

function LandingPage() {
  return (
    <>
      <section className="site-hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Cron jobs for your HTTP endpoints, without a server</h1>
        <p className="site-lead">
          {SITE_NAME} calls your URLs on cron schedules, logs every run, retries failures and emails you when a job keeps failing. Developers, DevOps
          and data teams, indie hackers and builders of AI agents use it instead of a crontab on a box that must never go down.
        </p>
        <div className="site-actions">
          <a className="button button-primary button-large" href="/signup">
            Start for Free
          </a>
          <a className="button button-secondary button-large" href="/login">
            Login
          </a>
          <a href="/pricing">See pricing and plans</a>
        </div>
        <p className="site-meta-line">
          Free plan: {PLAN_LIMITS.free.maxJobs} jobs and {PLAN_LIMITS.free.executionsPerMonth} runs a month, no credit card.
        </p>
      </section>

      <section aria-labelledby="steps-title">
        <h2 id="steps-title">From sign-up to scheduled in five steps</h2>
        <ol className="site-steps">
          {STEPS.map(([title, text]) => (
            <li key={title}>
              <strong>{title}</strong>
              {text}
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="features-title">
        <h2 id="features-title">What you get</h2>
        <ul className="site-cards">
          {FEATURES.map(([title, text]) => (
            <li className="site-card" key={title}>
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="uses-title">
        <h2 id="uses-title">What people schedule with it</h2>
        <div className="site-cards">
          {USE_CASES.map((group) => (
            <div className="site-card" key={group.title}>
              <h3>{group.title}</h3>
              <ul>
                {group.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
              <a href={group.guide[0]}>{group.guide[1]}</a>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="dev-title">
        <h2 id="dev-title">For developers: one request creates a job</h2>
        <p>
          Generate an API key under API Keys in your profile, then send the key and your user ID with every call. This request creates a job that
          posts to your endpoint at 09:00 UTC on weekdays and answers with the new job, including its <code>job_id</code> and{' '}
          <code>next_run_at</code>.
        </p>
        <CodeBlock label="Create a job with curl" code={createJobCurl(apiOrigin())} />
        <p>
          <a href="/api-documentation">Read the API documentation</a> for every endpoint, the validation rules and examples in Python and JavaScript.
        </p>
      </section>
    </>
  );
}

const page: SitePage = {
  meta: {
    path: '/',
    title: `${SITE_NAME}: hosted cron jobs for HTTP endpoints, with logs, retries and alerts`,
    description:
      'Schedule HTTP requests with cron expressions. Every run logged, failures retried up to 3 times and reported by email. REST API, MCP server and n8n node. Free plan, no card.',
    keywords: ['cron jobs', 'hosted cron', 'HTTP scheduler', 'webhook scheduler', 'cron API'],
  },
  Page: LandingPage,
};
export default page;
