import { CodeBlock } from '../layout/code-block';
import { guidePage } from '../layout/guide-layout';
import { apiOrigin } from '../site-meta';
import { guideBySlug } from './guide-catalog';

function Body() {
  const origin = apiOrigin();
  return (
    <>
      <h2>Why schedule CI/CD from outside</h2>
      <p>
        GitHub Actions cron has a 5-minute minimum granularity, scheduled runs are often delayed while GitHub is busy, and scheduled workflows are
        turned off in repositories without activity for 60 days. GitLab schedules and Jenkins timers have their own quirks. Most CI systems can also be
        started by an HTTP call, and that is where a hosted scheduler helps: the run starts at the minute you chose, the answer of the CI system is
        logged, and a failed trigger is retried and reported.
      </p>

      <h2>Trigger a GitHub Actions workflow</h2>
      <p>
        Give the workflow a <code>workflow_dispatch</code> trigger, create a fine-grained personal access token with the Actions (write) permission
        on that repository, and create a job that calls GitHub&apos;s dispatch endpoint. GitHub answers 204 when the run is queued.
      </p>
      <CodeBlock
        label="Workflow file with a manual trigger"
        code={`# .github/workflows/nightly.yml
on:
  workflow_dispatch:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm test`}
      />
      <CodeBlock
        label="Cronbeam job that starts it at 02:15 UTC"
        code={`curl -X POST ${origin}/prog/jobs \\
  -H "Authorization: Bearer YOUR_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{
    "name": "nightly-build",
    "url": "https://api.github.com/repos/OWNER/REPO/actions/workflows/nightly.yml/dispatches",
    "method": "POST",
    "headers": {
      "Authorization": "Bearer GITHUB_TOKEN",
      "Accept": "application/vnd.github+json",
      "X-GitHub-Api-Version": "2022-11-28"
    },
    "body": "{\\"ref\\": \\"main\\"}",
    "cron_expression": "15 2 * * *",
    "notify_on_failure": true
  }'`}
      />

      <h2>Trigger a GitLab pipeline</h2>
      <p>Create a pipeline trigger token under Settings, CI/CD, Pipeline trigger tokens, then:</p>
      <CodeBlock
        label="Cronbeam job that starts a GitLab pipeline"
        code={`{
  "name": "gitlab-weekly-audit",
  "url": "https://gitlab.com/api/v4/projects/PROJECT_ID/trigger/pipeline",
  "method": "POST",
  "headers": {"Content-Type": "application/x-www-form-urlencoded"},
  "body": "token=TRIGGER_TOKEN&ref=main",
  "cron_expression": "0 6 * * 1"
}`}
      />

      <h2>Deploy hooks and cleanups</h2>
      <p>
        Vercel, Netlify, Render and most platforms offer deploy hook URLs: a POST rebuilds the site. Schedule one to publish content at a fixed time
        (<code>0 6 * * *</code>), or call your own cleanup endpoint to drop preview environments every night. Protect your own endpoints with a secret
        header in the job.
      </p>

      <h2>Manage the jobs from the pipeline</h2>
      <p>
        Pipelines can keep their schedules in code through the <a href="/api-documentation">API</a>. Store the API key as a CI secret, then, for
        example, pause a job during a release and resume it afterwards:
      </p>
      <CodeBlock
        label="Pause and resume a job from CI"
        code={`# In a CI step; CRONBEAM_API_KEY is a secret, JOB_ID the job's id
curl -fsS -X POST ${origin}/prog/jobs/$JOB_ID/pause -H "Authorization: Bearer $CRONBEAM_API_KEY"
./deploy.sh
curl -fsS -X POST ${origin}/prog/jobs/$JOB_ID/resume -H "Authorization: Bearer $CRONBEAM_API_KEY"`}
      />
      <p>
        Every path of the API starts with <code>/prog</code>. A pause keeps the job&apos;s settings; resume schedules it again from its cron
        expression, so no run is made up for the paused time. An update (PUT) needs the full job definition.
      </p>

      <h2>Protect your own endpoints</h2>
      <p>
        When the target is your own cleanup or deploy endpoint rather than a CI provider&apos;s API, check a secret that only the job knows. A
        minimal Express handler:
      </p>
      <CodeBlock
        label="Endpoint that checks the job's secret header"
        code={`app.post('/tasks/cleanup-previews', async (req, res) => {
  if (req.get('X-Task-Secret') !== process.env.TASK_SECRET) return res.sendStatus(401);
  const removed = await removePreviewEnvironmentsOlderThan({ days: 2 });
  // The start of this answer appears in the job's logs.
  res.json({ removed: removed.length });
});`}
      />
      <p>
        Put the same value into the job&apos;s headers (<code>{'"X-Task-Secret": "..."'}</code>). Headers are stored with the job and sent with every
        run; they are not shown on public pages, but anyone who can sign in to your account can read them, so use a secret made for this purpose.
      </p>

      <h2>Common trigger errors</h2>
      <div className="site-table-wrap" tabIndex={0} role="region" aria-label="Table, scrolls sideways on small screens">
        <table>
          <thead>
            <tr>
              <th scope="col">Status in the logs</th>
              <th scope="col">Usual cause</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>401 or 403 from GitHub</td>
              <td>The token expired or lacks the Actions (write) permission on that repository.</td>
            </tr>
            <tr>
              <td>404 from GitHub</td>
              <td>Wrong owner, repository or workflow file name, or a token that cannot see a private repository.</td>
            </tr>
            <tr>
              <td>422 from GitHub</td>
              <td>
                The workflow has no <code>workflow_dispatch</code> trigger on the branch in <code>ref</code>, or the body is not the JSON GitHub expects.
              </td>
            </tr>
            <tr>
              <td>400 or 404 from GitLab</td>
              <td>A revoked trigger token or a wrong project ID; the ID is shown on the project&apos;s overview page.</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p>
        A useful habit: give each trigger job a name that says what it starts (<code>nightly-build</code>, <code>weekly-audit</code>) and turn on
        notify on failure, so an expired token shows up as one email the next morning rather than as a week of missing builds.
      </p>

      <h2>Watch the results</h2>
      <ul>
        <li>The logs show the status code of every trigger call: 204 from GitHub, 201 from GitLab.</li>
        <li>
          A 5xx answer, a timeout or a connection error is retried up to 3 times with exponential backoff; a 401 or 404 (an expired token, a wrong
          path) fails at once and, with notify on failure on, sends an email.
        </li>
        <li>The CI run itself is reported by the CI system; Cronbeam sees only whether the trigger was accepted.</li>
      </ul>
    </>
  );
}

export default guidePage(guideBySlug('ci-cd'), Body);
