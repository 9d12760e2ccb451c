import { CodeBlock } from '../layout/code-block';
import { guidePage } from '../layout/guide-layout';
import { apiOrigin } from '../site-meta';
import { guideBySlug } from './guide-catalog';

function Body() {
  const origin = apiOrigin();
  return (
    <>
      <h2>What a scheduled webhook is</h2>
      <p>
        A webhook is an HTTP endpoint that does something when it is called: rebuild a cache, send a digest, sync two systems. Put a schedule in front
        of it and you have a cron job without a server. Each Cronbeam job is exactly that: a URL, a method, optional headers and body, and a cron
        expression.
      </p>

      <h2>Create one in the dashboard</h2>
      <ol>
        <li>Sign in and choose Create Job.</li>
        <li>Name it with letters, digits, hyphens or underscores (for example <code>refresh-sitemap</code>).</li>
        <li>Paste the URL and pick the method: GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS.</li>
        <li>Add headers such as a secret token, and a body for POST or PUT.</li>
        <li>Set the schedule: the form explains the cron expression in words and shows the next runs.</li>
      </ol>

      <h2>Create one with the API</h2>
      <p>
        The same job through the <a href="/api-documentation">REST API</a>. An API key can be sent as a bearer token, or as <code>X-API-Key</code>{' '}
        with <code>X-User-ID</code>:
      </p>
      <CodeBlock
        label="Create a scheduled webhook"
        code={`curl -X POST ${origin}/prog/jobs \\
  -H "Authorization: Bearer YOUR_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "name": "weekly-digest",
    "url": "https://example.com/hooks/digest",
    "method": "POST",
    "headers": {"Content-Type": "application/json", "X-Hook-Secret": "s3cret"},
    "body": {"audience": "all", "period": "week"},
    "cron_expression": "0 8 * * MON",
    "notify_on_failure": true
  }'`}
      />
      <p>
        The body may be a string or, as here, a JSON object, which is stored and sent as its JSON text. Bodies are limited to 64 KiB and a job can
        have up to 50 headers. The answer carries the job&apos;s <code>job_id</code> and <code>next_run_at</code>.
      </p>

      <h2>Secure the receiving end</h2>
      <ul>
        <li>Use HTTPS. Plain HTTP URLs are accepted, but the form warns about them, and headers travel unencrypted.</li>
        <li>Check a secret header (like <code>X-Hook-Secret</code> above) and answer 401 without it.</li>
        <li>Make the handler idempotent: a retried run calls it again.</li>
        <li>Answer fast with a 2xx status and do long work in the background; a run that takes longer than the timeout counts as failed.</li>
      </ul>

      <h2>A minimal receiver</h2>
      <p>For example, in Node.js with Express, a digest endpoint that checks the secret and answers quickly:</p>
      <CodeBlock
        label="Webhook receiver in Express"
        code={`app.post('/hooks/digest', express.json(), (req, res) => {
  if (req.get('X-Hook-Secret') !== process.env.HOOK_SECRET) return res.sendStatus(401);
  // Acknowledge at once, send the mails in the background.
  queue.add('weekly-digest', { audience: req.body.audience, period: req.body.period });
  res.status(202).json({ queued: true });
});`}
      />

      <h2>What counts as a failure, and what happens then</h2>
      <p>
        A run fails when the endpoint answers with a 4xx or 5xx status, times out, or cannot be reached (DNS, connection or TLS errors). Timeouts, 5xx
        answers and connection errors are retried up to 3 times with exponential backoff; a 4xx is not retried, since sending the same request again
        will not change the answer. When the last attempt fails and the job has <code>notify_on_failure</code> on, you get an email with the job, the
        time and the error.
      </p>

      <h2>Read the results</h2>
      <p>
        Every run is logged with its time, status code, duration and the start of the response body. Read the last 50 runs, newest first, in the
        dashboard or with:
      </p>
      <CodeBlock
        label="Read a job's logs"
        code={`curl ${origin}/prog/jobs/JOB_ID/logs -H "Authorization: Bearer YOUR_API_KEY"`}
      />

      <h2>Useful schedules (UTC)</h2>
      <ul>
        <li>
          <code>*/5 * * * *</code>: every 5 minutes
        </li>
        <li>
          <code>0 * * * *</code>: every hour
        </li>
        <li>
          <code>0 9 * * 1-5</code>: 09:00 on weekdays
        </li>
        <li>
          <code>0 0 1 * *</code>: midnight on the first of the month
        </li>
        <li>
          <code>30 14 * * SUN</code>: 14:30 on Sundays
        </li>
      </ul>
      <p>
        Each run uses one execution of your plan&apos;s monthly quota (100 on Free, 1,500 on Basic, 10,000 on Pro): a job every 5 minutes needs
        about 8,900 a month, which fits the Pro plan.
      </p>
    </>
  );
}

export default guidePage(guideBySlug('webhooks'), Body);
