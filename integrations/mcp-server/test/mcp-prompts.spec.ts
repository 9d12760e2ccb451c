import { describeCron } from '@cronbeam/shared/cron';
import { PROMPTS } from '../src/prompts';
import { BuiltServer, connectStdio, type McpConnection } from './support/mcp-harness';

/** Every prompt through the real protocol: listed with its arguments, rendered with and without the optional ones. */
const EXPECTED_PROMPTS = [
  'setup_health_check',
  'debug_failing_job',
  'triage_failures',
  'audit_schedules',
  'estimate_monthly_usage',
  'convert_crontab',
  'migrate_github_actions',
  'create_daily_report_webhook',
  'keep_endpoint_warm',
  'schedule_from_description',
  'explain_cron',
  'convert_schedule_to_utc',
  'pause_for_maintenance',
  'resume_after_maintenance',
  'clone_job',
  'job_health_report',
  'review_job_security',
  'cleanup_stale_jobs',
];

/** Sample values for every argument name the prompts use, and a fragment each must put into the text. */
const SAMPLES: Record<string, [string, string]> = {
  url: ['https://status.example.com/health', 'https://status.example.com/health'],
  interval_minutes: ['10', 'every 10 minute'],
  name: ['status-check', "'status-check'"],
  job: ['nightly-backup', 'nightly-backup'],
  symptom: ['it stopped on Monday', 'it stopped on Monday'],
  min_consecutive_failures: ['3', 'min_consecutive_failures 3'],
  plan: ['basic', 'plan: basic'],
  manual_runs: ['12', '12 expected manual run(s)'],
  crontab: ['0 3 * * * /usr/bin/backup.sh', '/usr/bin/backup.sh'],
  base_url: ['https://ops.example.com/hooks', 'under https://ops.example.com/hooks'],
  timezone: ['Europe/Paris', 'time zone is Europe/Paris'],
  workflow: ['on:\n  schedule:\n    - cron: "0 4 * * *"', '- cron: "0 4 * * *"'],
  repository: ['acme/site', 'repos/acme/site/actions'],
  workflow_file: ['nightly.yml', 'workflows/nightly.yml/dispatches'],
  time: ['17:45', '45 17 * *'],
  weekdays_only: ['yes', '* * 1-5'],
  payload: ['{"kind":"sales"}', '{"kind":"sales"}'],
  idle_timeout_minutes: ['30', "'*/20 * * * *'"],
  schedule: ['every weekday at 9 in Berlin', 'every weekday at 9 in Berlin'],
  method: ['post', 'POST https://status.example.com/health'],
  cron_expression: ['30 6 * * 1', 'At 06:30, only on Monday'],
  audience: ['non-technical', 'for a non-technical audience'],
  time_zone: ['America/New_York', 'America/New_York local time'],
  name_contains: ['billing', "name_contains 'billing'"],
  reason: ['database upgrade', '(database upgrade)'],
  jobs: ['billing-sync, billing-report', 'exactly these jobs: billing-sync, billing-report'],
  new_name: ['nightly-backup-eu', "'nightly-backup-eu'"],
  changes: ['use the EU endpoint', 'use the EU endpoint'],
  idle_days: ['90', '90 days'],
};

describe('MCP prompts', () => {
  let bin: BuiltServer;
  let mcp: McpConnection;
  let toolNames: string[];

  beforeAll(async () => {
    bin = BuiltServer.build();
    mcp = await connectStdio(bin, { CRONBEAM_URL: 'http://127.0.0.1:9', CRONBEAM_API_KEY: 'cb_live_unused' });
    toolNames = (await mcp.client.listTools()).tools.map((t) => t.name);
  });

  afterAll(async () => {
    await mcp?.close();
    bin?.remove();
  });

  it('lists 18 distinct prompts, each with a title, a description and at least one argument', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(EXPECTED_PROMPTS);
    expect(new Set(prompts.map((p) => p.title)).size).toBe(18);
    for (const prompt of prompts) {
      expect(prompt.description!.length).toBeGreaterThan(20);
      expect(prompt.arguments!.length).toBeGreaterThan(0);
      for (const arg of prompt.arguments!) {
        expect(arg.description).toBeTruthy();
        expect(SAMPLES[arg.name]).toBeDefined();
      }
    }
  });

  describe.each(EXPECTED_PROMPTS)('%s', (name) => {
    const definition = () => PROMPTS.find((p) => p.name === name)!;
    const argsOf = async () => (await mcp.client.listPrompts()).prompts.find((p) => p.name === name)!.arguments!;

    it('renders with its required arguments only, naming only tools that exist', async () => {
      const args = await argsOf();
      const required = Object.fromEntries(args.filter((a) => a.required).map((a) => [a.name, SAMPLES[a.name][0]]));
      const result = await mcp.client.getPrompt({ name, arguments: required });
      expect(result.messages).toHaveLength(1);
      expect(result.messages[0].role).toBe('user');
      const text = result.messages[0].content.type === 'text' ? result.messages[0].content.text : '';
      expect(text.length).toBeGreaterThan(150);
      for (const [arg, value] of Object.entries(required)) expect(text).toContain(SAMPLES[arg][1] ?? value);
      expect(text).not.toContain('undefined');
      // Every snake_case word that looks like a tool name (and is not another prompt's name) is one.
      const mentioned = [...text.matchAll(/\b([a-z]+(?:_[a-z]+)+)\b/g)]
        .map((m) => m[1])
        .filter((w) => /^(list|get|create|update|delete|pause|resume|run|validate|explain|next|find|estimate|check)_/.test(w))
        .filter((w) => toolNames.includes(w) || !EXPECTED_PROMPTS.includes(w));
      expect(mentioned.length).toBeGreaterThan(0);
      for (const tool of mentioned) expect(toolNames).toContain(tool);
    });

    it('renders every optional argument into the text when given', async () => {
      const args = await argsOf();
      const all = Object.fromEntries(args.map((a) => [a.name, SAMPLES[a.name][0]]));
      const result = await mcp.client.getPrompt({ name, arguments: all });
      const text = result.messages[0].content.type === 'text' ? result.messages[0].content.text : '';
      for (const arg of args) expect(text).toContain(SAMPLES[arg.name][1]);
      expect(result.description).toBe(definition().description);
    });

    it('refuses to render without its required arguments', async () => {
      const args = await argsOf();
      if (!args.some((a) => a.required)) {
        // All-optional prompts render bare; the defaults are spelled out instead.
        const bare = await mcp.client.getPrompt({ name, arguments: {} });
        expect(bare.messages[0].content.type === 'text' && bare.messages[0].content.text).toBeTruthy();
        return;
      }
      await expect(mcp.client.getPrompt({ name, arguments: {} })).rejects.toThrow(/Invalid arguments for prompt/);
    });
  });

  it('create_daily_report_webhook turns the time into the schedule and flags a malformed one', async () => {
    const text = async (time: string) => {
      const result = await mcp.client.getPrompt({ name: 'create_daily_report_webhook', arguments: { url: 'https://r.example.com', time } });
      return result.messages[0].content.type === 'text' ? result.messages[0].content.text : '';
    };
    expect(await text('7:05')).toContain('Schedule: 5 7 * * *');
    const bad = await text('25:99');
    expect(bad).toContain('Schedule: 0 8 * * *');
    expect(bad).toContain("The time '25:99' is not HH:MM");
  });

  it.each([
    ['3', '*/2 * * * *'],
    ['15', '*/12 * * * *'],
    ['45', '*/30 * * * *'],
    ['240', '0 * * * *'],
  ])('keep_endpoint_warm picks a schedule that repeats evenly for an idle timeout of %s minutes', async (idle, cron) => {
    const result = await mcp.client.getPrompt({ name: 'keep_endpoint_warm', arguments: { url: 'https://fn.example.com', idle_timeout_minutes: idle } });
    expect(result.messages[0].content.type === 'text' && result.messages[0].content.text).toContain(`'${cron}'`);
  });

  it('explain_cron computes the facts locally and reports an invalid expression', async () => {
    const ok = await mcp.client.getPrompt({ name: 'explain_cron', arguments: { cron_expression: '*/10 8-17 * * 1-5' } });
    const text = ok.messages[0].content.type === 'text' ? ok.messages[0].content.text : '';
    expect(text).toContain(describeCron('*/10 8-17 * * 1-5'));
    expect(text).toMatch(/Next runs if read in UTC: \d{4}-\d\d-\d\dT/);
    const bad = await mcp.client.getPrompt({ name: 'explain_cron', arguments: { cron_expression: '0 0 * * 7' } });
    expect(bad.messages[0].content.type === 'text' && bad.messages[0].content.text).toContain("is NOT a valid Cronbeam schedule: Day of week must be between 0 and 6");
  });
});
