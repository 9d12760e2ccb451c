import { CodeBlock } from '../layout/code-block';
import { guidePage } from '../layout/guide-layout';
import { apiOrigin } from '../site-meta';
import { guideBySlug } from './guide-catalog';

function Body() {
  const origin = apiOrigin();
  return (
    <>
      <h2>The pattern: every step behind an endpoint</h2>
      <p>
        Many data pipelines are a few steps that run in order: extract from a source, transform, load into a warehouse, refresh a report. When each
        step is an HTTP endpoint (a serverless function, an internal API, an Airbyte or dbt Cloud job trigger), a scheduler can start them and keep
        their history without a workflow server of your own.
      </p>

      <h2>Schedule the steps</h2>
      <p>Give each step its own job and space the schedules so each step has time to finish before the next one starts:</p>
      <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
        <table>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Schedule (UTC)</th>
              <th scope="col">Calls</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <code>extract-orders</code>
              </td>
              <td>
                <code>0 1 * * *</code> (01:00)
              </td>
              <td>POST /etl/extract</td>
            </tr>
            <tr>
              <td>
                <code>transform-orders</code>
              </td>
              <td>
                <code>30 1 * * *</code> (01:30)
              </td>
              <td>POST /etl/transform</td>
            </tr>
            <tr>
              <td>
                <code>refresh-dashboard</code>
              </td>
              <td>
                <code>0 2 * * *</code> (02:00)
              </td>
              <td>POST /reports/refresh</td>
            </tr>
          </tbody>
        </table>
      </div>
      <CodeBlock
        label="Create the first step"
        code={`curl -X POST ${origin}/prog/jobs \\
  -H "X-API-Key: YOUR_API_KEY" -H "X-User-ID: YOUR_USER_ID" \\
  -H "Content-Type: application/json" \\
  -d '{
    "name": "extract-orders",
    "url": "https://etl.example.com/etl/extract",
    "method": "POST",
    "headers": {"Authorization": "Bearer ETL_TOKEN", "Content-Type": "application/json"},
    "body": "{\\"since\\": \\"yesterday\\"}",
    "cron_expression": "0 1 * * *",
    "notify_on_failure": true
  }'`}
      />
      <p>
        Let each endpoint answer when its work is done, or with a 2xx as soon as it has started the work safely and can be polled later; a run that
        takes longer than the request timeout counts as failed.
      </p>

      <h2>Monitor every run</h2>
      <ul>
        <li>
          <strong>Logs:</strong> each run keeps its time, status code, duration and the start of the response body. Make your endpoint answer with
          a small summary (<code>{'{"rows": 1832}'}</code>) and the logs become a history of your pipeline. Read the last 50 runs with{' '}
          <code>GET /prog/jobs/JOB_ID/logs</code>.
        </li>
        <li>
          <strong>Retries:</strong> timeouts, 5xx answers and connection errors are retried up to 3 times with exponential backoff, which covers
          most transient warehouse and network hiccups. Make the steps idempotent so a retry does no harm.
        </li>
        <li>
          <strong>Alerts:</strong> with <code>notify_on_failure</code> on, a failure that survives the retries sends an email: a step answering
          with an error, timing out, an expired TLS certificate, or the instance behind the endpoint being offline.
        </li>
        <li>
          <strong>Dashboard:</strong> all jobs on one screen with their status, next run and recent activity; pause a step while you fix it and
          resume it afterwards.
        </li>
      </ul>

      <h2>Make each step report what it did</h2>
      <p>
        The logs keep the start of every answer, so a step that answers with a short summary turns the job&apos;s history into a record of the
        pipeline. For example, an extract step in Python:
      </p>
      <CodeBlock
        label="A step that answers with a summary"
        code={`@app.post("/etl/extract")
def extract():
    if request.headers.get("Authorization") != f"Bearer {ETL_TOKEN}":
        return {"detail": "unauthorized"}, 401
    rows = copy_orders_since(yesterday())
    if rows == 0:
        # An empty day is suspicious: answer 500 so the run fails and alerts.
        return {"rows": 0, "detail": "no orders copied"}, 500
    return {"rows": rows, "table": "staging.orders"}, 200`}
      />
      <p>
        Answering with an error status when something is wrong (no rows, a source that did not answer) is what turns a silent bad night into an
        email: Cronbeam judges a run by its status code, not by the content of the answer.
      </p>

      <h2>Spacing steps or chaining them</h2>
      <p>
        Fixed spacing (01:00, 01:30, 02:00) is simple and easy to read in the dashboard, but a slow night can make the second step start before the
        first has finished. Two ways around it:
      </p>
      <ul>
        <li>Give each step enough margin, based on the durations the logs show over a few weeks.</li>
        <li>
          Let the first step start the next one itself when it is done, and keep a Cronbeam job only for the first step: the pipeline then runs as
          one chain, and its start and result are still logged and alerted.
        </li>
      </ul>

      <h2>Plan the quota</h2>
      <p>
        Every run is one execution of the monthly quota: 100 on Free, 1,500 on Basic and 10,000 on Pro. Three daily steps use about 90 a month; an
        hourly sync about 730. When the quota is used up, runs are skipped and logged as such until the next month, so check the usage in the
        dashboard before adding frequent jobs. <a href="/pricing">Compare the plans</a>.
      </p>

      <h2>Where to go next</h2>
      <p>
        Trigger steps from an AI assistant with the <a href="/guides/mcp-introduction">MCP server</a>, or run them as n8n workflows with{' '}
        <a href="/guides/monitor-n8n">the n8n guide</a>.
      </p>
    </>
  );
}

export default guidePage(guideBySlug('data-pipeline-monitoring'), Body);
