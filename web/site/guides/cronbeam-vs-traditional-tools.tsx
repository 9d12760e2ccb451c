import { CodeBlock } from '../layout/code-block';
import { guidePage } from '../layout/guide-layout';
import { guideBySlug } from './guide-catalog';

const ROWS = [
  ['Smallest interval', '1 minute', '1 minute', '5 minutes', '1 minute (most)'],
  ['Runs when your server is down', 'yes', 'no', 'yes', 'yes'],
  ['History of every run', 'status, duration, response (last 50 per job via API)', 'only what you log yourself', 'workflow run logs', 'provider logs'],
  ['Retries on failure', 'up to 3, exponential backoff', 'write them yourself', 're-run by hand', 'configurable'],
  ['Failure alerts', 'email per job', 'MAILTO output, if mail works', 'email to the actor', 'via monitoring setup'],
  ['What it can run', 'HTTP requests', 'any command on the box', 'any CI step', 'HTTP, queues, functions'],
  ['Setup', 'a URL and a cron expression', 'a server to keep alive', 'a repository and a workflow file', 'a cloud account, IAM and billing'],
] as const;

function Body() {
  return (
    <>
      <h2>The short answer</h2>
      <p>
        If the work is already behind an HTTP endpoint, a hosted HTTP scheduler removes the one box that must never go down. If the work is a shell
        command that needs a machine, crontab or a CI runner is still the right tool. The table compares the usual options.
      </p>
      <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
        <table>
          <caption className="site-meta-line">Cronbeam compared with crontab, GitHub Actions schedules and cloud schedulers</caption>
          <thead>
            <tr>
              <th scope="col">&nbsp;</th>
              <th scope="col">Cronbeam</th>
              <th scope="col">crontab</th>
              <th scope="col">GitHub Actions schedule</th>
              <th scope="col">Cloud scheduler</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([label, ...cells]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {cells.map((cell, i) => (
                  <td key={i}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>crontab on your own server</h2>
      <p>
        Free and flexible, and the schedule lives next to the code it runs. The cost shows up later: the server must stay up, its clock and time zone
        matter, output goes nowhere unless you redirect it, and nobody notices a job that silently stopped. Moving servers means moving the
        crontab too.
      </p>

      <h2>GitHub Actions schedules</h2>
      <p>
        Handy when the job is a CI step. The <code>schedule</code> trigger has a 5-minute minimum interval, runs are often delayed at busy times,
        and scheduled workflows are switched off in repositories without activity for 60 days. Cronbeam can start a workflow at an exact minute
        through GitHub&apos;s API instead: see <a href="/guides/ci-cd">scheduled CI/CD</a>.
      </p>

      <h2>Cloud schedulers</h2>
      <p>
        AWS EventBridge Scheduler, Google Cloud Scheduler and their peers are reliable and deeply integrated with their clouds. They also mean IAM
        roles, per-region setup and a monitoring stack before you see a failed run. They pay off when the targets are inside that cloud.
      </p>

      <h2>Where Cronbeam fits</h2>
      <ul>
        <li>Any HTTP or HTTPS endpoint, with your method, headers and body.</li>
        <li>Each run logged with status code, duration and the start of the response.</li>
        <li>Up to 3 automatic retries with exponential backoff for timeouts, 5xx answers and connection errors.</li>
        <li>An email when a job with notify on failure keeps failing.</li>
        <li>Edit, pause, resume and delete jobs in the dashboard or through the REST API.</li>
        <li>A monthly execution quota per plan, shown in the dashboard; the Free plan needs no credit card.</li>
      </ul>
      <p>
        It does not run shell commands, and it calls only public addresses (private and loopback networks are refused), so internal jobs need an
        endpoint reachable from the internet, protected by a secret header.
      </p>

      <h2>Moving a crontab line to Cronbeam</h2>
      <p>Take a typical line from a server&apos;s crontab:</p>
      <CodeBlock label="A crontab line" code={`*/15 * * * * curl -fsS -H "X-Token: abc123" https://example.com/tasks/sync >> /var/log/sync.log 2>&1`} />
      <ol>
        <li>
          The schedule stays the same: <code>*/15 * * * *</code>. Check the server&apos;s time zone first: Cronbeam reads schedules in UTC unless you give the job a time zone, so a
          line like <code>0 8 * * *</code> on a server set to Berlin time either becomes <code>0 7 * * *</code> (UTC, winter) or stays as it is
          with the job&apos;s time zone set to <code>Europe/Berlin</code>.
        </li>
        <li>The URL, method and headers of the curl command become the job&apos;s URL, method and headers.</li>
        <li>The log file is no longer needed: each run&apos;s status, duration and answer are in the job&apos;s logs.</li>
        <li>
          <code>curl -f</code> made HTTP errors visible only in that log; turn on notify on failure instead and get an email.
        </li>
        <li>Remove the line from the crontab once the job has run successfully a few times.</li>
      </ol>
      <p>
        Lines that run local scripts (<code>backup.sh</code>, <code>php artisan schedule:run</code>) need an HTTP endpoint first, for example a
        small authenticated route in the application that runs the same code.
      </p>

      <h2>Where to go next</h2>
      <p>
        Start on the <a href="/">home page</a>, <a href="/signup">create a free account</a>, or read more <a href="/guides">guides</a>.
      </p>
    </>
  );
}

export default guidePage(guideBySlug('cronbeam-vs-traditional-tools'), Body);
