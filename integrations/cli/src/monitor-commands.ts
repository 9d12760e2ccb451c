import { unwrap, type Monitor } from '@cronbeam/sdk';
import type { Command } from 'commander';
import { normaliseMonitor } from './desired-state';
import { findMonitor } from './lookup';
import { cell, printFields, printJson, printLine, printTable } from './output';
import { clientFor, resolveSettings } from './settings';

interface Global {
  json?: boolean;
}

const connect = async () => clientFor(await resolveSettings());

const schedule = (monitor: Monitor) => (monitor.cron_expression === null ? `every ${monitor.period_seconds} s` : `${monitor.cron_expression} (${monitor.time_zone})`);

export function registerMonitorCommands(program: Command): void {
  const monitors = program.command('monitors').description('manage heartbeat monitors (named by name or id)');
  const global = (command: Command) => command.optsWithGlobals<Global>();

  monitors
    .command('list')
    .description('list your monitors')
    .action(async (_options, command: Command) => {
      const list = await unwrap((await connect()).GET('/prog/monitors'));
      if (global(command).json) printJson(list);
      else
        printTable(
          ['NAME', 'STATUS', 'SCHEDULE', 'GRACE', 'LAST PING', 'ID'],
          list.map((monitor) => [monitor.name, monitor.status, schedule(monitor), `${monitor.grace_seconds} s`, cell(monitor.last_ping_at), monitor.monitor_id]),
          'No monitors yet: create one with cronbeam monitors create',
        );
    });

  monitors
    .command('get <monitor>')
    .description("show a monitor, its ping URL and its latest events")
    .action(async (name: string, _options, command: Command) => {
      const client = await connect();
      const monitor = await findMonitor(client, name);
      const { events } = await unwrap(client.GET('/prog/monitors/{monitor_id}/events', { params: { path: { monitor_id: monitor.monitor_id } } }));
      if (global(command).json) {
        printJson({ ...monitor, events });
        return;
      }
      printFields(monitor);
      printLine();
      printTable(['EVENT', 'AT', 'DURATION'], events.map((event) => [event.kind, event.at, event.duration_ms === null ? '-' : `${event.duration_ms} ms`]), 'No pings yet');
    });

  monitors
    .command('create')
    .description('create a monitor: a ping expected every --period seconds, or at each instant of --cron')
    .requiredOption('--name <name>', 'the monitor name')
    .option('--period <seconds>', 'a ping is expected every this many seconds')
    .option('--cron <expression>', 'a ping is expected at each instant of this expression')
    .option('--time-zone <zone>', 'IANA time zone of --cron')
    .option('--grace <seconds>', 'how late a ping may be before the monitor goes down')
    .action(async (flags: { name: string; period?: string; cron?: string; timeZone?: string; grace?: string }, command: Command) => {
      const given = {
        name: flags.name,
        period_seconds: flags.period === undefined ? undefined : Number(flags.period),
        cron_expression: flags.cron,
        time_zone: flags.timeZone,
        grace_seconds: flags.grace === undefined ? undefined : Number(flags.grace),
      };
      const body = normaliseMonitor(Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)), 'monitor');
      const created = await unwrap((await connect()).POST('/prog/monitors', { body }));
      if (global(command).json) printJson(created);
      else printLine(`Created monitor ${created.name}; ping ${created.ping_url}`);
    });

  monitors
    .command('delete <monitor>')
    .description('delete a monitor')
    .action(async (name: string, _options, command: Command) => {
      const client = await connect();
      const monitor = await findMonitor(client, name);
      await unwrap(client.DELETE('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitor.monitor_id } } }));
      if (global(command).json) printJson({ deleted: monitor.monitor_id, name: monitor.name });
      else printLine(`Deleted monitor ${monitor.name}`);
    });

  for (const action of ['pause', 'resume'] as const) {
    monitors
      .command(`${action} <monitor>`)
      .description(action === 'pause' ? 'stop expecting pings (no alerts while paused)' : 'expect pings again')
      .action(async (name: string, _options, command: Command) => {
        const client = await connect();
        const monitor = await findMonitor(client, name);
        const path = { monitor_id: monitor.monitor_id };
        const changed = await unwrap(action === 'pause' ? client.POST('/prog/monitors/{monitor_id}/pause', { params: { path } }) : client.POST('/prog/monitors/{monitor_id}/resume', { params: { path } }));
        if (global(command).json) printJson(changed);
        else printLine(`${action === 'pause' ? 'Paused' : 'Resumed'} monitor ${changed.name} (status ${changed.status})`);
      });
  }
}
