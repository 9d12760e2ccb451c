import { CodeBlock } from '../layout/code-block';
import { guidePage } from '../layout/guide-layout';
import { apiOrigin } from '../site-meta';
import { guideBySlug } from './guide-catalog';

function Body() {
  const origin = apiOrigin();
  return (
    <>
      <h2>Two ways Cronbeam works with n8n</h2>
      <ol>
        <li>
          <strong>Cronbeam starts the workflow.</strong> A Webhook node is the workflow&apos;s trigger and a Cronbeam job calls its URL on a cron
          schedule. Every call is logged with the status code n8n answered, and a failure is retried and reported by email.
        </li>
        <li>
          <strong>n8n manages and watches Cronbeam.</strong> The community package{' '}
          <a href="https://www.npmjs.com/package/n8n-nodes-cronbeam">n8n-nodes-cronbeam</a> adds a Cronbeam node (create, update, pause, resume and
          delete jobs, read their logs) and a Cronbeam Trigger that starts a workflow when runs fail, recover or succeed.
        </li>
      </ol>

      <h2>Run a workflow on a schedule</h2>
      <p>
        In n8n, add a Webhook node, set its method to POST and activate the workflow; copy the production URL. Then create the job in the dashboard,
        or with the API:
      </p>
      <CodeBlock
        label="Create a job that triggers an n8n webhook"
        code={`curl -X POST ${origin}/prog/jobs \\
  -H "Authorization: Bearer YOUR_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "name": "n8n-daily-digest",
    "url": "https://your-n8n.example.com/webhook/daily-digest",
    "method": "POST",
    "headers": {"Content-Type": "application/json"},
    "body": "{\\"source\\": \\"cronbeam\\"}",
    "cron_expression": "0 7 * * *",
    "notify_on_failure": true
  }'`}
      />
      <p>
        n8n&apos;s own Schedule Trigger works too, but only while that n8n instance is up: if it is down at 07:00, nothing records the missed run.
        With the schedule outside n8n, a run that cannot reach the instance fails visibly in the job&apos;s logs, is retried up to 3 times with
        exponential backoff, and ends in an email.
      </p>

      <h2>Install the community node</h2>
      <p>
        In n8n open Settings, Community Nodes, Install, and enter <code>n8n-nodes-cronbeam</code>. Then create a Cronbeam API credential with three
        fields: the Base URL (<code>{origin}</code>), your API key and your user ID, both from the API Keys section of your profile. The
        credential test calls the API and says whether the key works.
      </p>
      <ul>
        <li>
          The <strong>Cronbeam</strong> node sets up a job from a workflow: API key, job name and cron expression are all it needs, the URL being
          the webhook to call.
        </li>
        <li>
          The <strong>Cronbeam Trigger</strong> polls the logs of the jobs you pick (or all of them) and starts the workflow for Failed, Recovered or
          Succeeded runs, for example to post failures into your team chat.
        </li>
      </ul>

      <h2>Example: post failed runs to your team chat</h2>
      <ol>
        <li>Add a Cronbeam Trigger node, pick the jobs to watch and keep the event Failed.</li>
        <li>Connect a Slack, Microsoft Teams or Discord node (or an HTTP Request node for any chat webhook).</li>
        <li>
          Build the message from the trigger&apos;s output: the job name, the status code and the error of the failed run, with a link to the
          dashboard.
        </li>
        <li>Activate the workflow. Add the Recovered event to a second branch to post when the job works again.</li>
      </ol>
      <p>Each poll reads the logs of the watched jobs, so watching fewer jobs keeps well within the API key&apos;s rate limit.</p>

      <h2>What is monitored, and what is not (yet)</h2>
      <p>
        Cronbeam monitors the calls it makes: when n8n answers with an error, times out or cannot be reached, the run fails. There is no heartbeat
        (ping) model yet: Cronbeam does not wait for your workflow to check in, so a workflow that accepts the webhook and then fails inside n8n
        counts as a success. Let such a workflow answer the webhook only after its work is done (set the Webhook node to respond when the last node
        finishes), and the status code in the logs tells the real story.
      </p>

      <h2>Where to go next</h2>
      <p>
        No n8n instance yet? <a href="/guides/deploy-n8n">Deploy your own n8n from Cronbeam</a>. For other webhook targets, see{' '}
        <a href="/guides/webhooks">scheduled webhooks</a>.
      </p>
    </>
  );
}

export default guidePage(guideBySlug('monitor-n8n'), Body);
