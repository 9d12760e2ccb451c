import { Fragment, type ReactNode } from 'react';
import { javascriptExample, pythonExample } from '../api-docs/api-examples';
import { documentedEndpoints, PROG_OPENAPI, rulesText, typeText, type DocumentedEndpoint, type SchemaObject } from '../api-docs/openapi-model';
import { CodeBlock } from '../layout/code-block';
import { apiOrigin, SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

const TOC = [
  ['overview', 'Overview'],
  ['authentication', 'Authentication'],
  ['quick-start', 'Quick Start'],
  ['endpoints', 'Endpoints'],
  ['schemas', 'Data Schemas'],
  ['validation', 'Validation Rules'],
  ['examples', 'SDK Examples'],
  ['troubleshooting', 'Troubleshooting'],
  ['help', 'Getting Help'],
] as const;

const CRON_EXAMPLES = [
  ['*/5 * * * *', 'every 5 minutes'],
  ['0 * * * *', 'every hour, on the hour'],
  ['0 9 * * 1-5', 'at 09:00 on weekdays (Monday to Friday)'],
  ['0 0 1 * *', 'at midnight on the first day of every month'],
  ['30 14 * * 0', 'at 14:30 on Sundays (also written SUN)'],
] as const;

/** Text from the document with `code` spans. */
function InlineText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith('`') && part.endsWith('`') ? <code key={i}>{part.slice(1, -1)}</code> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  );
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function Endpoint({ endpoint, origin }: { endpoint: DocumentedEndpoint; origin: string }) {
  const { operation, method, path, anchor } = endpoint;
  const request = operation.requestBody?.content['application/json'];
  const requestExample = request?.examples ? Object.values(request.examples)[0]?.value : request?.example;
  const needsKey = Boolean(operation.security?.length);
  const pathParams = operation.parameters?.filter((p) => p.in === 'path') ?? [];
  return (
    <section id={anchor} aria-labelledby={`${anchor}-title`}>
      <h3 id={`${anchor}-title`}>
        {operation.summary}: <code>{`${method.toUpperCase()} ${path}`}</code>
      </h3>
      {operation.description ? <p>{operation.description}</p> : null}
      <p>
        {needsKey ? 'Needs X-API-Key and X-User-ID (or Authorization: Bearer with the key).' : 'No key needed.'}
        {pathParams.map((p) => (
          <Fragment key={p.name}>
            {' '}
            <code>{p.name}</code>: {p.description ?? 'path parameter'}.
          </Fragment>
        ))}
        {request?.schema ? (
          <>
            {' '}
            Body: <a href="#schemas">{typeText(request.schema)}</a>.
          </>
        ) : null}
      </p>
      {requestExample !== undefined ? (
        <CodeBlock label={`Example request of ${method.toUpperCase()} ${path}`} code={`curl -X ${method.toUpperCase()} ${origin}${path.replace('{job_id}', 'JOB_ID').replace('{monitor_id}', 'MONITOR_ID')} \\
  -H "X-API-Key: YOUR_API_KEY" -H "X-User-ID: YOUR_USER_ID" \\
  -H "Content-Type: application/json" \\
  -d '${json(requestExample).replace(/'/g, "'\\''")}'`} />
      ) : null}
      <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
        <table>
          <caption className="site-meta-line">Responses of {`${method.toUpperCase()} ${path}`}</caption>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Meaning</th>
              <th scope="col">Body</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(operation.responses).map(([status, response]) => {
              const media = response.content?.['application/json'];
              return (
                <tr key={status}>
                  <td>{status}</td>
                  <td>{response.description}</td>
                  <td>{media?.schema ? typeText(media.schema) || 'object' : 'none'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {Object.entries(operation.responses)
        .filter(([status]) => status.startsWith('2'))
        .map(([status, response]) => {
          const example = response.content?.['application/json']?.example;
          return example === undefined ? null : <CodeBlock key={status} label={`Example ${status} answer of ${method.toUpperCase()} ${path}`} code={json(example)} />;
        })}
    </section>
  );
}

function SchemaTable({ name, schema }: { name: string; schema: SchemaObject }) {
  const properties = Object.entries(schema.properties ?? {});
  return (
    <section aria-labelledby={`schema-${name}`}>
      <h3 id={`schema-${name}`}>{name}</h3>
      {schema.description ? <p>{schema.description}</p> : null}
      <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Rules and meaning</th>
            </tr>
          </thead>
          <tbody>
            {properties.map(([field, property]) => (
              <tr key={field}>
                <td>
                  <code>{field}</code>
                </td>
                <td>{typeText(property)}</td>
                <td>{schema.required?.includes(field) ? 'yes' : 'no'}</td>
                <td>{[rulesText(property), property.description].filter(Boolean).join('. ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

function ApiDocsPage() {
  const doc = PROG_OPENAPI;
  const origin = apiOrigin();
  const endpoints = documentedEndpoints(doc);
  const definition = doc.components.schemas.JobDefinition;
  const schemaNames = ['JobDefinition', 'Job', 'JobLogEntry', 'JobLimitExceeded'].filter((n) => doc.components.schemas[n]);
  return (
    <article>
      <h1>{SITE_NAME} API documentation</h1>
      <p className="site-lead">
        Create, change, pause and inspect scheduled HTTP jobs from your own code. This page is generated from the same OpenAPI document the server
        publishes at <a href="/prog/openapi.json">/prog/openapi.json</a> (interactive reference: <a href="/prog/docs">/prog/docs</a>), version{' '}
        {doc.info.version}.
      </p>
      <nav className="site-toc" aria-label="Table of contents">
        <h2>Contents</h2>
        <ol>
          {TOC.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
              {id === 'endpoints' ? (
                <ol>
                  {endpoints.map((e) => (
                    <li key={e.anchor}>
                      <a href={`#${e.anchor}`}>{e.operation.summary}</a>
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      </nav>

      <Section id="overview" title="Overview">
        <p>{doc.info.description ? <InlineText text={doc.info.description} /> : null}</p>
        <p>
          Base URL: <code>{origin}/prog</code>. Requests and answers are JSON. Times are ISO 8601 in UTC.
        </p>
      </Section>

      <Section id="authentication" title="Authentication">
        <ol>
          <li>
            <a href="/signup">Create an account</a> or <a href="/login">sign in</a>.
          </li>
          <li>
            Open your profile from the <a href="/dashboard">dashboard</a> and find the API Keys section.
          </li>
          <li>Choose Generate New API Key and give the key a name.</li>
          <li>Copy the key at once (it is shown only this one time) and your user ID.</li>
          <li>
            Send both on every request except <code>/prog/ping</code>: <code>X-API-Key: YOUR_API_KEY</code> and <code>X-User-ID: YOUR_USER_ID</code>.
            <code>Authorization: Bearer YOUR_API_KEY</code> works too, without the user ID.
          </li>
        </ol>
        <p>Keep keys out of source control; delete a key from your profile to revoke it. Jobs belong to the key&apos;s owner: listing returns only your jobs.</p>
      </Section>

      <Section id="quick-start" title="Quick Start">
        <p>Check that the service answers, then create your first job:</p>
        <CodeBlock label="Health check with curl" code={`curl ${origin}/prog/ping`} />
        <CodeBlock
          label="Create a job with curl"
          code={`curl -X POST ${origin}/prog/jobs \\
  -H "X-API-Key: YOUR_API_KEY" -H "X-User-ID: YOUR_USER_ID" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "every-5-minutes", "url": "https://example.com/ping", "method": "GET", "headers": {}, "body": "", "cron_expression": "*/5 * * * *"}'`}
        />
        <p>
          The answer is the job with its <code>job_id</code>, <code>status</code> and <code>next_run_at</code>. Its runs appear under{' '}
          <a href="#job-logs">the logs endpoint</a> and in the dashboard.
        </p>
      </Section>

      <Section id="endpoints" title="Endpoints">
        {endpoints.map((endpoint) => (
          <Endpoint key={endpoint.anchor} endpoint={endpoint} origin={origin} />
        ))}
      </Section>

      <Section id="schemas" title="Data Schemas">
        {schemaNames.map((name) => (
          <SchemaTable key={name} name={name} schema={doc.components.schemas[name]} />
        ))}
      </Section>

      <Section id="validation" title="Validation Rules">
        <p>
          A job definition that breaks a rule is refused with status 422 and a list naming each field: <code>{'{"detail": [{"loc": ["body", "name"], "msg": "...", "type": "..."}]}'}</code>.
          Required fields: {(definition.required ?? []).map((f) => f).join(', ')}; an update (PUT) needs the full definition.
        </p>
        <ul>
          {Object.entries(definition.properties ?? {}).map(([field, property]) => (
            <li key={field}>
              <code>{field}</code>: {[typeText(property), rulesText(property), property.description].filter(Boolean).join('; ')}
            </li>
          ))}
        </ul>
        <p>Cron examples (read in the job&apos;s time_zone, UTC unless you set one):</p>
        <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
          <table>
            <thead>
              <tr>
                <th scope="col">Expression</th>
                <th scope="col">Runs</th>
              </tr>
            </thead>
            <tbody>
              {CRON_EXAMPLES.map(([expression, meaning]) => (
                <tr key={expression}>
                  <td>
                    <code>{expression}</code>
                  </td>
                  <td>{meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section id="examples" title="SDK examples in Python and JavaScript">
        <p>
          Both create a job, update it, pause and resume it, list your jobs, read its logs and delete it. Replace YOUR_API_KEY and YOUR_USER_ID.
        </p>
        <h3>Python (requests)</h3>
        <CodeBlock label="Python example" code={pythonExample(origin)} />
        <h3>JavaScript (Node.js 18+, saved as example.mjs)</h3>
        <CodeBlock label="JavaScript example" code={javascriptExample(origin)} />
      </Section>

      <Section id="troubleshooting" title="Troubleshooting">
        <dl>
          <dt>
            401 <code>Invalid API key</code>
          </dt>
          <dd>Check the key, that the user ID belongs to the same account, and that both headers are sent.</dd>
          <dt>
            403 <code>Job limit exceeded</code>
          </dt>
          <dd>
            Your plan&apos;s job count is reached (the answer names the plan, <code>job_count</code> and <code>max_jobs</code>). Delete a job or{' '}
            <a href="/pricing">upgrade your plan</a>.
          </dd>
          <dt>422 validation error</dt>
          <dd>Each entry of detail names the field in loc and the reason in msg: a bad name, cron expression or URL, or a missing field.</dd>
          <dt>429 too many requests</dt>
          <dd>Wait the seconds given in the Retry-After header.</dd>
          <dt>Timeouts or no answer</dt>
          <dd>
            Call <a href="#health-check">/prog/ping</a> first, then retry after 1 to 2 seconds with exponential backoff, as the examples do.
          </dd>
          <dt>A job fails</dt>
          <dd>
            Timeouts, 5xx answers and connection errors (DNS, TLS) are retried up to 3 times with exponential backoff; with{' '}
            <code>notify_on_failure</code> on, you get an email when a run fails for good. Its logs show the status code and the error.
          </dd>
        </dl>
      </Section>

      <Section id="help" title="Getting Help">
        <p>
          Questions or a bug? <a href="/contact">Contact us</a>; we answer within 24-48 hours. Manage keys and jobs in the <a href="/dashboard">dashboard</a>,
          or <a href="/signup">sign up</a> to get a key. Step-by-step walkthroughs are in the <a href="/guides">guides</a>.
        </p>
      </Section>
    </article>
  );
}

const page: SitePage = {
  meta: {
    path: '/api-documentation',
    title: `API Documentation | ${SITE_NAME}`,
    description: `Reference of the ${SITE_NAME} REST API: authentication with API keys, every job endpoint, data schemas, validation rules, and Python and JavaScript examples.`,
    keywords: ['cron API', 'REST API', 'scheduled jobs API', 'OpenAPI', 'API key'],
  },
  Page: ApiDocsPage,
};
export default page;
