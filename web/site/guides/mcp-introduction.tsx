import { CodeBlock } from '../layout/code-block';
import { guidePage } from '../layout/guide-layout';
import { apiOrigin } from '../site-meta';
import { guideBySlug } from './guide-catalog';

function Body() {
  const origin = apiOrigin();
  return (
    <>
      <h2>What MCP is, in one paragraph</h2>
      <p>
        The Model Context Protocol (MCP) is an open standard that lets an AI assistant call tools offered by a separate program, the MCP server.
        The assistant sees each tool&apos;s name, description and input schema, decides when to call it, and reads the answer. Claude Desktop,
        Cursor, VS Code and a growing list of other clients speak it. An MCP server for Cronbeam turns &quot;check my webhook every 15 minutes and
        email me if it breaks&quot; into real API calls.
      </p>

      <h2>What the Cronbeam MCP server can do</h2>
      <p>
        The server (<code>@cronbeam/mcp-server</code>, command <code>cronbeam-mcp</code>) wraps the public API with your API key. Its tools:
      </p>
      <ul>
        <li>
          Jobs: <code>list_jobs</code>, <code>get_job</code>, <code>create_job</code>, <code>update_job</code>, <code>delete_job</code>,{' '}
          <code>pause_job</code>, <code>resume_job</code> and <code>run_job_now</code>.
        </li>
        <li>
          Runs: <code>get_job_logs</code> (the last 50 runs, newest first) and <code>find_failing_jobs</code>.
        </li>
        <li>
          Cron helpers that work offline: <code>validate_cron</code>, <code>explain_cron</code> and <code>next_cron_runs</code>, plus{' '}
          <code>estimate_executions</code> to see how much of your monthly quota a schedule uses.
        </li>
        <li>
          <code>check_connection</code>, which calls the health check and tells the assistant what is wrong with the settings if anything is.
        </li>
      </ul>
      <p>
        It also ships ready-made prompts, such as &quot;Set up a health check for a URL&quot; and &quot;Debug a failing job&quot;, that your
        client lists as slash commands or templates.
      </p>

      <h2>Step 1: get an API key and your user ID</h2>
      <p>
        Sign in, open your profile and use Generate New API Key in the API Keys section. Copy the key right away (it is shown once) and your user ID.
        The assistant acts with this key, so it can do exactly what you can do through the <a href="/api-documentation">API</a>: manage the jobs of
        your account, within your plan&apos;s job and execution limits.
      </p>

      <h2>Step 2: add the server to your assistant</h2>
      <p>Most desktop clients read a JSON configuration of MCP servers. For Claude Desktop it looks like this:</p>
      <CodeBlock
        label="Claude Desktop configuration"
        code={`{
  "mcpServers": {
    "cronbeam": {
      "command": "npx",
      "args": ["-y", "@cronbeam/mcp-server"],
      "env": {
        "CRONBEAM_URL": "${origin}",
        "CRONBEAM_API_KEY": "YOUR_API_KEY",
        "CRONBEAM_USER_ID": "YOUR_USER_ID"
      }
    }
  }
}`}
      />
      <p>
        The server talks to the assistant over standard input and output. To share one server between several clients, start it with{' '}
        <code>cronbeam-mcp --http 3333</code> instead; it then serves the Streamable HTTP transport at <code>http://127.0.0.1:3333/mcp</code>.
        A missing or malformed setting does not stop it from starting: every tool answers with a message naming the variable to fix.
      </p>

      <h2>Step 3: ask in plain words</h2>
      <p>Some requests that map directly onto the tools:</p>
      <ul>
        <li>&quot;Create a job called uptime-api that GETs https://api.example.com/health every 5 minutes and emails me when it fails.&quot;</li>
        <li>&quot;Which of my jobs failed today, and what did the endpoint answer?&quot;</li>
        <li>&quot;Pause nightly-report until I say so.&quot;</li>
        <li>&quot;What does 0 9 * * 1-5 mean, and when are its next three runs?&quot;</li>
        <li>&quot;How many executions a month would a job every 10 minutes use? Does it fit my plan?&quot;</li>
      </ul>
      <p>
        Behind the first request the assistant calls <code>validate_cron</code>, then <code>create_job</code> with a body like the one below, and
        reports the job&apos;s <code>next_run_at</code>:
      </p>
      <CodeBlock
        label="Job created by the assistant"
        code={`{
  "name": "uptime-api",
  "url": "https://api.example.com/health",
  "method": "GET",
  "headers": {},
  "body": "",
  "cron_expression": "*/5 * * * *",
  "notify_on_failure": true
}`}
      />

      <h2>A worked example: from question to running job</h2>
      <p>
        Suppose you ask: &quot;Make sure https://shop.example.com/api/health is up, every 10 minutes during business hours on weekdays, and tell
        me by email if it breaks.&quot; A well-behaved assistant works through the tools like this:
      </p>
      <ol>
        <li>
          It turns &quot;every 10 minutes during business hours on weekdays&quot; into <code>*/10 9-17 * * 1-5</code> and checks it with{' '}
          <code>validate_cron</code> and <code>next_cron_runs</code>, so it can show you the next three runs before anything is created. Remember
          that the hours are read in UTC unless the job gets a <code>time_zone</code>: for 09:00-17:59 in Berlin it should either propose{' '}
          <code>*/10 8-16 * * 1-5</code> (winter, UTC) or keep <code>*/10 9-17 * * 1-5</code> with <code>time_zone</code> set to{' '}
          <code>Europe/Berlin</code>, which also follows daylight saving time.
        </li>
        <li>
          It calls <code>estimate_executions</code>: 6 runs an hour, 9 hours a day, about 22 weekdays a month is roughly 1,190 executions, which
          fits the Basic plan (1,500) but not the Free plan (100). A good assistant says so before creating the job.
        </li>
        <li>
          It calls <code>create_job</code> with <code>notify_on_failure</code> set to true and reports the new job&apos;s id and{' '}
          <code>next_run_at</code>.
        </li>
        <li>
          Later, asked &quot;how is the shop health check doing?&quot;, it calls <code>get_job_logs</code> and summarises the status codes and
          durations of the last runs, or <code>find_failing_jobs</code> to look at all jobs at once.
        </li>
      </ol>
      <p>
        Because every step is an ordinary API call, everything the assistant does shows up in the dashboard too: you can edit, pause or delete the
        job there, and the assistant sees your changes the next time it lists the jobs.
      </p>

      <h2>Keep the assistant&apos;s access under control</h2>
      <ul>
        <li>
          Create a separate API key for each assistant or machine, named after it (&quot;claude-laptop&quot;). If a laptop is lost or a
          configuration file is shared by mistake, delete that one key in your profile; the others keep working.
        </li>
        <li>
          The key is stored in your assistant&apos;s configuration file in plain text. Keep that file private and out of version control.
        </li>
        <li>
          Destructive tools such as <code>delete_job</code> are marked as such, so clients that ask before running risky tools will ask you first.
          Deleting a job removes its logs too and cannot be undone.
        </li>
        <li>
          The API allows a fixed number of calls per key and minute; an assistant that loops over many jobs may see 429 answers and should wait
          the seconds given in <code>Retry-After</code>.
        </li>
      </ul>

      <h2>Troubleshooting</h2>
      <dl>
        <dt>&quot;CRONBEAM_API_KEY is not set&quot;</dt>
        <dd>The server started without a key. Add it and the user ID to the <code>env</code> block of its configuration and restart the client.</dd>
        <dt>401 Invalid API key</dt>
        <dd>The key was deleted, mistyped, or belongs to another account than the user ID. Generate a new key and copy both values again.</dd>
        <dt>403 Job limit exceeded</dt>
        <dd>Your plan&apos;s job count is reached. Delete a job or upgrade; the assistant cannot raise the limit.</dd>
        <dt>The client does not list the tools</dt>
        <dd>
          Check that Node.js 20 or newer is installed (the client runs the server with <code>npx</code>) and look at the client&apos;s MCP log;{' '}
          <code>check_connection</code> reports whether the API answers and whether the key works.
        </dd>
      </dl>

      <h2>Limits worth knowing</h2>
      <ul>
        <li>Schedules are 5-field cron expressions, read in UTC unless the job has a time_zone; the smallest interval is one minute.</li>
        <li>Job names use letters, digits, hyphens and underscores, 1-50 characters, unique in your account.</li>
        <li>Your plan caps the number of jobs (2 on Free, 10 on Basic, 50 on Pro) and the executions per month (100, 1,500, 10,000).</li>
        <li>
          Failed runs (timeouts, 5xx answers, connection errors) are retried up to 3 times with exponential backoff before a failure email goes out.
        </li>
      </ul>

      <h2>Where to go next</h2>
      <p>
        Assistants are good at chaining steps. If you schedule several steps of a data flow this way, read{' '}
        <a href="/guides/data-pipelines">scheduling and monitoring data pipelines</a> for how to space the steps and watch their results. To run
        workflows instead of single requests, see <a href="/guides/monitor-n8n">triggering n8n workflows</a>.
      </p>
    </>
  );
}

export default guidePage(guideBySlug('mcp-introduction'), Body);
