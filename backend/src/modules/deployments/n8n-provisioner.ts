import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { DeploymentStepName } from '@cronbeam/shared/deployments/deployment-types';
import { VOLUME_SIZE_GB } from '@cronbeam/shared/deployments/cost-estimate';
import { AppConfig } from '../../config/app-config';
import { TeamsService } from '../teams/teams.service';
import { MailService } from '../mail/mail.service';
import { DeploymentEvents } from './deployment-events.service';
import { deploymentFailedMail, deploymentLiveMail } from './deployment-mail';
import { DeploymentsRepository } from './deployments.repository';
import { FLY_MACHINES_API, FlyApiError, type FlyMachineConfig, type FlyMachinesApi, type FlySession } from './fly-machines-client';

/**
 * What one provisioning needs. The Fly token and the n8n password exist
 * only here, in memory, until the run ends; nothing writes them anywhere
 * except the password into the machine's configuration on Fly, where n8n
 * reads it.
 */
export interface ProvisionRequest {
  deploymentId: string;
  accountId: string;
  email: string;
  flyToken: string;
  username: string;
  password: string;
  region: string;
  ramMb: number;
  appName: string;
  url: string;
}

/** n8n's data directory in the official image: workflows, credentials and the SQLite database live there. */
const N8N_DATA_PATH = '/home/node/.n8n';
const N8N_PORT = 5678;
/** Fly's shared CPUs take at most 2 GB of memory each. */
const MB_PER_SHARED_CPU = 2048;
const HEALTH_REQUEST_TIMEOUT_MS = 10_000;

const INTERRUPTED = 'Provisioning was interrupted because the Cronbeam server stopped';
const ABANDONED =
  'Provisioning was interrupted because the Cronbeam server stopped; whatever was created on Fly.io so far may remain: delete this deployment from the dashboard to remove it';

class StepTimeout extends Error {}

/** How to remove what a step created, and the steps that removal undoes. */
interface Undo {
  steps: DeploymentStepName[];
  action: () => Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Runs provisioning in the background, one step at a time, recording each
 * step as it starts and ends and pushing the change to the account's event
 * stream. A failed step rolls back the steps before it (newest first), so
 * nothing half-created stays on the account's Fly account. A clean shutdown
 * interrupts running provisionings and rolls them back while the token is
 * still in memory; after a crash the periodic sweep fails the abandoned
 * ones (the token is gone with the process, so it cannot clean up).
 */
@Injectable()
export class N8nProvisioner implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(N8nProvisioner.name);
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private sweeping: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: DeploymentsRepository,
    private readonly events: DeploymentEvents,
    private readonly mail: MailService,
    private readonly teams: TeamsService,
    private readonly config: AppConfig,
    @Inject(FLY_MACHINES_API) private readonly fly: FlyMachinesApi,
  ) {}

  onModuleInit(): void {
    const staleMs = this.config.env.FLY_PROVISION_STALE_SECONDS * 1000;
    const everyMs = Math.max(200, Math.min(60_000, Math.floor(staleMs / 3)));
    this.startSweep();
    this.timer = setInterval(() => this.startSweep(), everyMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const runs = [...this.running.values()];
    for (const run of runs) run.abort.abort(new Error(INTERRUPTED));
    await Promise.allSettled(runs.map((r) => r.done));
    // A sweep under way finishes its writes and mails before the database closes.
    await this.sweeping;
  }

  /** One sweep at a time: a tick that finds the last one still running skips. */
  private startSweep(): void {
    this.sweeping ??= this.sweep().finally(() => (this.sweeping = null));
  }

  /** Starts provisioning in the background; the HTTP request that asked for it has already been answered. */
  start(request: ProvisionRequest): void {
    const abort = new AbortController();
    const done = this.run(request, abort.signal)
      .catch((error: unknown) => this.logger.error({ deploymentId: request.deploymentId, err: error }, 'Provisioning crashed'))
      .finally(() => this.running.delete(request.deploymentId));
    this.running.set(request.deploymentId, { abort, done });
  }

  private async run(req: ProvisionRequest, signal: AbortSignal): Promise<void> {
    const id = req.deploymentId;
    const fly = this.fly.session(req.flyToken, signal);
    // Rollback must run even when the shutdown signal aborted the steps.
    const cleanup = this.fly.session(req.flyToken);
    const undo: Undo[] = [];
    let current: DeploymentStepName = 'create_app';
    try {
      await this.step(id, (current = 'create_app'), async () => {
        await fly.createApp(req.appName, this.config.env.FLY_ORG_SLUG);
        undo.push({ steps: ['create_app'], action: () => cleanup.deleteApp(req.appName) });
      });
      await this.step(id, (current = 'allocate_ips'), async () => {
        const ips: string[] = [];
        undo.push({ steps: ['allocate_ips'], action: async () => void (await Promise.all(ips.map((ip) => cleanup.releaseIp(req.appName, ip)))) });
        // A dedicated IPv6 and a shared IPv4: both free, and enough for {app}.fly.dev over either protocol.
        ips.push((await fly.allocateIp(req.appName, 'v6')).ip);
        ips.push((await fly.allocateIp(req.appName, 'shared_v4')).ip);
      });
      let volumeId = '';
      await this.step(id, (current = 'create_volume'), async () => {
        volumeId = (await fly.createVolume(req.appName, { name: 'n8n_data', region: req.region, size_gb: VOLUME_SIZE_GB })).id;
        await this.repository.recordVolume(id, volumeId);
        undo.push({ steps: ['create_volume'], action: () => cleanup.deleteVolume(req.appName, volumeId) });
      });
      let machine = { id: '', instanceId: undefined as string | undefined };
      await this.step(id, (current = 'create_machine'), async () => {
        const created = await fly.createMachine(req.appName, { name: 'n8n', region: req.region, config: this.machineConfig(req, volumeId) });
        machine = { id: created.id, instanceId: created.instance_id };
        await this.repository.recordMachine(id, created.id);
        // The volume cannot be deleted while a machine holds it: the machine goes first. Destroying it also undoes its start.
        undo.push({ steps: ['create_machine', 'start_machine'], action: () => cleanup.destroyMachine(req.appName, machine.id) });
      });
      const deadline = Date.now() + this.config.env.FLY_STARTUP_TIMEOUT_SECONDS * 1000;
      await this.step(id, (current = 'start_machine'), () => this.waitStarted(fly, req, machine, deadline, signal));
      await this.step(id, (current = 'health_check'), () => this.waitHealthy(req.url, deadline, signal));
      if (await this.repository.markLive(id)) {
        const deployment = await this.publish(id);
        this.logger.log({ deploymentId: id, appName: req.appName }, 'n8n deployment is live');
        await this.sendMail(() => deploymentLiveMail(req.email, deployment, req.username, `${this.config.publicUrl}/dashboard/n8n`));
      }
    } catch (error) {
      const reason = this.reasonOf(error, signal);
      this.logger.warn({ deploymentId: id, appName: req.appName, step: current, reason }, 'n8n deployment failed; rolling back');
      await this.repository.finishStep(id, current, 'failed', reason);
      await this.publish(id);
      const leftovers = await this.rollback(id, undo);
      const error_ = leftovers.length ? `${reason}. Rollback incomplete: ${leftovers.join('; ')}` : reason;
      await this.repository.markFailed(id, current, error_);
      const deployment = await this.publish(id);
      await this.sendMail(() => deploymentFailedMail(req.email, deployment, `${this.config.publicUrl}/dashboard/n8n`));
    }
  }

  private async step(id: string, step: DeploymentStepName, work: () => Promise<void>): Promise<void> {
    await this.repository.startStep(id, step);
    await this.publish(id);
    await work();
    await this.repository.finishStep(id, step, 'done');
    await this.publish(id);
  }

  /** Undoes the finished steps newest first; returns what could not be undone. */
  private async rollback(id: string, undo: Undo[]): Promise<string[]> {
    const leftovers: string[] = [];
    for (const { steps, action } of [...undo].reverse()) {
      try {
        await action();
      } catch (error) {
        // Already gone is as good as removed.
        if (!(error instanceof FlyApiError && error.isNotFound)) {
          leftovers.push(`could not undo "${steps[0]}" (${(error as Error).message})`);
          continue;
        }
      }
      await this.repository.markUndone(id, steps);
      await this.publish(id);
    }
    if (undo.length && !leftovers.length) {
      await this.repository.recordVolume(id, null);
      await this.repository.recordMachine(id, null);
    }
    return leftovers;
  }

  private machineConfig(req: ProvisionRequest, volumeId: string): FlyMachineConfig {
    const host = new URL(req.url).host;
    return {
      image: this.config.env.FLY_N8N_IMAGE,
      env: {
        N8N_BASIC_AUTH_ACTIVE: 'true',
        N8N_BASIC_AUTH_USER: req.username,
        N8N_BASIC_AUTH_PASSWORD: req.password,
        N8N_HOST: host,
        N8N_PORT: String(N8N_PORT),
        N8N_PROTOCOL: 'https',
        WEBHOOK_URL: `${req.url}/`,
        GENERIC_TIMEZONE: 'UTC',
      },
      guest: { cpu_kind: 'shared', cpus: Math.max(1, Math.ceil(req.ramMb / MB_PER_SHARED_CPU)), memory_mb: req.ramMb },
      mounts: [{ volume: volumeId, path: N8N_DATA_PATH }],
      services: [
        {
          protocol: 'tcp',
          internal_port: N8N_PORT,
          ports: [
            { port: 443, handlers: ['tls', 'http'] },
            { port: 80, handlers: ['http'], force_https: true },
          ],
        },
      ],
      restart: { policy: 'always' },
    };
  }

  /** Fly's wait call blocks up to 60 s; it is repeated until the machine runs or the deadline passes. */
  private async waitStarted(fly: FlySession, req: ProvisionRequest, machine: { id: string; instanceId?: string }, deadline: number, signal: AbortSignal) {
    for (;;) {
      const left = Math.ceil((deadline - Date.now()) / 1000);
      if (left <= 0) throw new StepTimeout(`the machine did not start within ${this.config.env.FLY_STARTUP_TIMEOUT_SECONDS} s`);
      if (await fly.waitForState(req.appName, machine.id, 'started', Math.min(60, left), machine.instanceId)) return;
      await this.repository.heartbeat([req.deploymentId]);
      signal.throwIfAborted();
    }
  }

  /**
   * n8n answers /healthz once it has migrated its database and listens; until then the proxy answers errors.
   * Only the deployment's own URL is asked: the machine is the account's to replace, so a redirect it answers could
   * point this server anywhere, its own network included, and is never followed (n8n itself does not redirect there).
   */
  private async waitHealthy(url: string, deadline: number, signal: AbortSignal) {
    let last = 'no answer';
    for (;;) {
      try {
        const response = await fetch(`${url}/healthz`, { redirect: 'manual', signal: AbortSignal.any([signal, AbortSignal.timeout(HEALTH_REQUEST_TIMEOUT_MS)]) });
        await response.arrayBuffer();
        if (response.ok) return;
        last = response.status >= 300 && response.status < 400 ? `HTTP ${response.status}, a redirect, not followed` : `HTTP ${response.status}`;
      } catch (error) {
        signal.throwIfAborted();
        last = (error as Error).name === 'TimeoutError' ? 'timed out' : 'not reachable';
      }
      if (Date.now() + this.config.env.FLY_POLL_INTERVAL_MS > deadline) {
        throw new StepTimeout(`n8n did not answer at ${url} within ${this.config.env.FLY_STARTUP_TIMEOUT_SECONDS} s (last: ${last})`);
      }
      await sleep(this.config.env.FLY_POLL_INTERVAL_MS, signal);
    }
  }

  private reasonOf(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return INTERRUPTED;
    if (error instanceof FlyApiError || error instanceof StepTimeout) return error.message;
    this.logger.error({ err: error }, 'Unexpected provisioning error');
    return 'Internal error while provisioning';
  }

  private async publish(id: string) {
    const { accountId, ...deployment } = await this.repository.findById(id);
    this.events.publish({ accountId, deployment });
    return deployment;
  }

  private async sendMail(build: () => Parameters<MailService['send']>[0]): Promise<void> {
    try {
      await this.mail.send(build());
    } catch (error) {
      this.logger.warn(`Deployment mail not sent: ${(error as Error).message}`);
    }
  }

  /** Keeps this instance's runs alive in the database and fails runs no instance is driving any more. */
  private async sweep(): Promise<void> {
    try {
      await this.repository.heartbeat([...this.running.keys()]);
      const abandoned = await this.repository.failAbandoned(this.config.env.FLY_PROVISION_STALE_SECONDS, [...this.running.keys()], ABANDONED);
      for (const { accountId, ...deployment } of abandoned) {
        this.events.publish({ accountId, deployment });
        const user = await this.teams.ownerOf(accountId);
        if (user) await this.sendMail(() => deploymentFailedMail(user.email, deployment, `${this.config.publicUrl}/dashboard/n8n`));
      }
    } catch (error) {
      this.logger.warn(`Deployment sweep failed: ${(error as Error).message}`);
    }
  }
}
