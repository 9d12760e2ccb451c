/** The create-job request of the landing page's developer section, printed for the API origin of this server. */
export function createJobCurl(origin: string): string {
  const job = {
    name: 'nightly-report',
    url: 'https://example.com/hooks/report',
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"report": "daily"}',
    cron_expression: '0 9 * * 1-5',
  };
  return [
    `curl -X POST ${origin}/prog/jobs \\`,
    '  -H "X-API-Key: YOUR_API_KEY" \\',
    '  -H "X-User-ID: YOUR_USER_ID" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '${JSON.stringify(job, null, 2).replace(/\n/g, '\n  ')}'`,
  ].join('\n');
}
