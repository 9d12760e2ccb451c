/** The guides: the index lists them in this order, each page reads its own entry. */
export interface GuideEntry {
  slug: string;
  title: string;
  description: string;
  category: string;
  readingMinutes: number;
  keywords: readonly string[];
  /** Whether the page embeds schema.org Article data. */
  articleData: boolean;
  published: string;
}

export const GUIDES: readonly GuideEntry[] = [
  {
    slug: 'mcp-introduction',
    title: 'Cron jobs from your AI assistant: an introduction to the Cronbeam MCP server',
    description: 'Connect Claude, Cursor or any MCP client to Cronbeam and create, pause and inspect scheduled HTTP jobs by asking in plain words.',
    category: 'AI agents',
    readingMinutes: 10,
    keywords: ['MCP', 'Model Context Protocol', 'AI agent cron', 'Claude cron jobs', 'scheduled HTTP requests'],
    articleData: false,
    published: '2026-11-16',
  },
  {
    slug: 'monitor-n8n',
    title: 'Trigger and monitor n8n workflows on a schedule',
    description: 'Use the Cronbeam n8n node and a webhook trigger to run n8n workflows on cron schedules, with run logs and failure emails.',
    category: 'n8n',
    readingMinutes: 5,
    keywords: ['n8n cron', 'n8n schedule trigger', 'n8n monitoring', 'n8n webhook', 'n8n-nodes-cronbeam'],
    articleData: false,
    published: '2026-11-16',
  },
  {
    slug: 'deploy-n8n',
    title: 'Deploy your own n8n instance from Cronbeam',
    description: 'What the Self-Host N8N deployment asks for (cloud-host token, subdomain, region, deployment name), what it provisions and what to do once it is live.',
    category: 'n8n',
    readingMinutes: 8,
    keywords: ['self-host n8n', 'deploy n8n', 'n8n hosting', 'n8n on Fly.io', 'n8n one click'],
    articleData: false,
    published: '2026-11-16',
  },
  {
    slug: 'cronbeam-vs-traditional-tools',
    title: 'Cronbeam vs crontab, CI schedulers and cloud schedulers',
    description: 'How a hosted HTTP cron service compares with crontab on a server, GitHub Actions schedules and cloud schedulers: intervals, logs, retries, alerts and cost.',
    category: 'Comparison',
    readingMinutes: 7,
    keywords: ['crontab alternative', 'hosted cron', 'cron as a service', 'GitHub Actions schedule', 'serverless cron'],
    articleData: false,
    published: '2026-11-16',
  },
  {
    slug: 'webhooks',
    title: 'Scheduled webhooks: call any HTTP endpoint on a cron schedule',
    description: 'Send GET or POST requests with headers and a JSON body on a cron schedule, read every response in the logs and get an email when a call fails.',
    category: 'Webhooks',
    readingMinutes: 6,
    keywords: ['scheduled webhook', 'cron webhook', 'HTTP cron job', 'POST on a schedule', 'webhook scheduler'],
    articleData: true,
    published: '2026-11-16',
  },
  {
    slug: 'ci-cd',
    title: 'Scheduled CI/CD: nightly builds, deploys and cleanups with Cronbeam',
    description: 'Trigger GitHub Actions, GitLab pipelines or deploy hooks on exact cron schedules through their HTTP APIs, and manage the jobs from your pipeline with the Cronbeam API.',
    category: 'CI/CD',
    readingMinutes: 9,
    keywords: ['scheduled CI', 'GitHub Actions cron', 'workflow_dispatch schedule', 'nightly build trigger', 'deploy hook cron'],
    articleData: true,
    published: '2026-11-16',
  },
  {
    slug: 'data-pipeline-monitoring',
    title: 'Run and monitor data pipelines with scheduled HTTP jobs',
    description: 'Start ETL and sync endpoints on cron schedules, keep the last responses of every run, retry transient failures and get an email when a step fails.',
    category: 'Data',
    readingMinutes: 8,
    keywords: ['data pipeline scheduling', 'ETL cron', 'pipeline monitoring', 'scheduled sync', 'job failure alerts'],
    articleData: true,
    published: '2026-11-16',
  },
];

export function guideBySlug(slug: string): GuideEntry {
  const guide = GUIDES.find((g) => g.slug === slug);
  if (!guide) throw new Error(`No guide ${slug}`);
  return guide;
}
