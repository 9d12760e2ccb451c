import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProgClient } from './api/prog-client';
import type { CronbeamSettings } from './config';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { registerCronTools } from './tools/cron-tools';
import { registerInsightTools } from './tools/insight-tools';
import { registerJobTools } from './tools/job-tools';
import { registerMaintenanceTools } from './tools/maintenance-tools';
import { registerMonitorTools } from './tools/monitor-tools';
import { SERVER_VERSION } from './version';

export const SERVER_NAME = 'cronbeam';

const INSTRUCTIONS = `Cronbeam schedules HTTP requests on 5-field cron schedules, each read in its job's time zone (UTC unless the job names one), and logs every execution.
Use list_jobs/get_job to look, create_job/update_job/pause_job/resume_job/delete_job/run_job_now to act, get_job_logs and find_failing_jobs to investigate, and validate_cron/explain_cron/next_cron_runs for schedules (local, no API call). Heartbeat monitors watch jobs that run elsewhere: list_monitors/get_monitor/get_monitor_events to look, create_monitor (answers the ping URL the job must call)/update_monitor/pause_monitor/resume_monitor/delete_monitor to act. Maintenance windows mute failure alerts (and optionally skip runs) for a job, a tag or every job: list_maintenance_windows/create_maintenance_window/delete_maintenance_window. Jobs and monitors can be named by id or by name. Ask before deleting. When calls fail with a configuration or key error, run check_connection and tell the user which environment variable to fix.`;

/** One MCP server (one per client session): every tool, resource and prompt over one /prog client. */
export function createCronbeamServer(settings: CronbeamSettings, client = new ProgClient(settings)): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Cronbeam', version: SERVER_VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  registerJobTools(server, client);
  registerMonitorTools(server, client);
  registerMaintenanceTools(server, client);
  registerInsightTools(server, client);
  registerCronTools(server);
  registerResources(server, client);
  registerPrompts(server);
  return server;
}
