/**
 * The SDK examples of the documentation page. They are printed with this
 * server's API origin and run by test/api/site-examples.e2e-spec.ts as
 * printed, with only the key and the user id filled in.
 */
export function pythonExample(origin: string): string {
  return `import time
import requests

API = "${origin}/prog"
HEADERS = {"X-API-Key": "YOUR_API_KEY", "X-User-ID": "YOUR_USER_ID"}


def call(method, path, **kwargs):
    """One API call, retried after 1 and 2 seconds when the service is busy or starting."""
    for delay in (1, 2, None):
        response = requests.request(method, API + path, headers=HEADERS, timeout=15, **kwargs)
        if response.status_code not in (429, 502, 503, 504) or delay is None:
            response.raise_for_status()
            return response.json()
        time.sleep(delay)


print(call("GET", "/ping"))  # {'message': 'pong'}, no key needed

job = call("POST", "/jobs", json={
    "name": "hourly-health-check",
    "url": "https://example.com/health",
    "method": "GET",
    "headers": {},
    "body": "",
    "cron_expression": "0 * * * *",
})
job_id = job["job_id"]
print("created", job_id, "next run", job["next_run_at"])

job["cron_expression"] = "*/30 * * * *"  # update needs the full definition
definition = {k: job[k] for k in ("name", "url", "method", "headers", "body", "cron_expression")}
print("updated", call("PUT", f"/jobs/{job_id}", json=definition)["cron_expression"])

print(call("POST", f"/jobs/{job_id}/pause")["status"])   # paused
print(call("POST", f"/jobs/{job_id}/resume")["status"])  # scheduled
print(len(call("GET", "/jobs")), "job(s) in your account")
print(len(call("GET", f"/jobs/{job_id}/logs")["logs"]), "run(s) logged")

call("DELETE", f"/jobs/{job_id}")
print("deleted", job_id)
`;
}

export function javascriptExample(origin: string): string {
  return `// Node.js 18+ or a browser: fetch is built in.
const API = '${origin}/prog';
const HEADERS = { 'X-API-Key': 'YOUR_API_KEY', 'X-User-ID': 'YOUR_USER_ID', 'Content-Type': 'application/json' };

async function call(method, path, body) {
  // Retried after 1 and 2 seconds when the service is busy or starting.
  for (const delay of [1000, 2000, null]) {
    const response = await fetch(API + path, { method, headers: HEADERS, body: body && JSON.stringify(body) });
    if (![429, 502, 503, 504].includes(response.status) || delay === null) {
      const data = await response.json();
      if (!response.ok) throw new Error(\`\${method} \${path}: \${response.status} \${JSON.stringify(data.detail)}\`);
      return data;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

const job = await call('POST', '/jobs', {
  name: 'nightly-cleanup',
  url: 'https://example.com/tasks/cleanup',
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ olderThanDays: 30 }),
  cron_expression: '0 3 * * *',
  notify_on_failure: true,
});
console.log('created', job.job_id, 'next run', job.next_run_at);

const { job_id, name, url, method, headers, body } = job;
const updated = await call('PUT', \`/jobs/\${job_id}\`, { name, url, method, headers, body, cron_expression: '30 3 * * *' });
console.log('updated', updated.cron_expression);

console.log((await call('POST', \`/jobs/\${job_id}/pause\`)).status); // paused
console.log((await call('POST', \`/jobs/\${job_id}/resume\`)).status); // scheduled
console.log((await call('GET', '/jobs')).length, 'job(s) in your account');
console.log((await call('GET', \`/jobs/\${job_id}/logs\`)).logs.length, 'run(s) logged');

await call('DELETE', \`/jobs/\${job_id}\`);
console.log('deleted', job_id);
`;
}
