import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { estimateMonthlyCost } from '@cronbeam/shared/deployments/cost-estimate';
import { DEPLOYMENT_MESSAGES, type ValidDeploymentRequest } from '@cronbeam/shared/deployments/deployment-rules';
import type { Deployment, DeploymentLimitExceeded, DeploymentStarted } from '@cronbeam/shared/deployments/deployment-types';
import { findRegion } from '@cronbeam/shared/deployments/regions';
import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { AppConfig } from '../../config/app-config';
import type { Actor } from '../audit';
import { TeamsService } from '../teams/teams.service';
import { DeploymentEvents } from './deployment-events.service';
import { DeploymentsRepository } from './deployments.repository';
import { FLY_MACHINES_API, FlyApiError, type FlyMachinesApi } from './fly-machines-client';
import { N8nProvisioner } from './n8n-provisioner';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** Lowercase letters and digits: a generated app name is also a DNS label. */
function generatedAppName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(10);
  return `n8n-${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

/** Self-hosted n8n deployments: the monthly quota, starting provisioning, listing and teardown. */
@Injectable()
export class DeploymentsService {
  private readonly logger = new Logger(DeploymentsService.name);

  constructor(
    private readonly repository: DeploymentsRepository,
    private readonly teams: TeamsService,
    private readonly provisioner: N8nProvisioner,
    private readonly events: DeploymentEvents,
    private readonly config: AppConfig,
    @Inject(FLY_MACHINES_API) private readonly fly: FlyMachinesApi,
  ) {}

  /** `email` receives the completion (or failure) mail. */
  async start(actor: Actor, accountId: string, email: string, request: ValidDeploymentRequest): Promise<DeploymentStarted> {
    const plan = await this.teams.planOf(accountId);
    const quota = PLAN_LIMITS[plan].deploymentsPerMonth;
    const appName = request.app_name ?? generatedAppName();
    const url = withoutTrailingSlashes(this.config.env.FLY_APP_URL_TEMPLATE.replace('{app}', appName));
    const { inserted, used } = await this.repository.insertWithinQuota(
      actor,
      {
        accountId,
        name: request.deployment_name || appName,
        appName,
        region: request.region,
        ramMb: request.ram_mb,
        estimatedMonthlyCost: estimateMonthlyCost(request.ram_mb, request.region).total,
        url,
      },
      quota,
    );
    if (!inserted) {
      const detail: DeploymentLimitExceeded = { error: 'N8N deployment limit exceeded', plan, deployments_used: used, deployments_quota: quota };
      throw ApiError.forbidden(detail);
    }
    this.events.publish({ accountId, deployment: inserted });
    this.provisioner.start({
      deploymentId: inserted.deployment_id,
      accountId,
      email,
      flyToken: request.fly_token,
      username: request.username,
      password: request.password,
      region: request.region,
      ramMb: request.ram_mb,
      appName,
      url,
    });
    this.logger.log({ deploymentId: inserted.deployment_id, appName, region: request.region, ramMb: request.ram_mb }, 'n8n deployment started');
    return {
      status: 'started',
      message: `Deployment started: n8n is being provisioned at ${url} in ${findRegion(request.region)?.name ?? request.region}. You will receive an email when it is live.`,
      deployment_id: inserted.deployment_id,
    };
  }

  list(accountId: string): Promise<Deployment[]> {
    return this.repository.listForAccount(accountId);
  }

  async get(accountId: string, id: string): Promise<Deployment> {
    const deployment = isUuid(id) ? await this.repository.findForAccount(accountId, id) : null;
    if (!deployment) throw ApiError.notFound(DEPLOYMENT_MESSAGES.notFound);
    return deployment;
  }

  /** This calendar month's deployments that count against the plan (the dashboard's stat card). */
  countThisMonth(accountId: string): Promise<number> {
    return this.repository.countThisMonth(accountId);
  }

  /**
   * Removes the instance from Fly with the token the user supplies again
   * (machine, then volume, then the app with its addresses; what is already
   * gone is fine) and marks the deployment deleted. An app is only deleted
   * when our create_app step made it: a name taken by another app of the
   * user's must never be torn down.
   */
  async teardown(actor: Actor, accountId: string, id: string, flyToken: string): Promise<Deployment> {
    const resources = isUuid(id) ? await this.repository.resourcesForAccount(accountId, id) : null;
    if (!resources) throw ApiError.notFound(DEPLOYMENT_MESSAGES.notFound);
    if (resources.status === 'provisioning') throw ApiError.conflict(DEPLOYMENT_MESSAGES.stillProvisioning);
    if (resources.status === 'deleted') throw ApiError.conflict(DEPLOYMENT_MESSAGES.alreadyDeleted);
    if (resources.appCreated) {
      const fly = this.fly.session(flyToken);
      const gone = (error: unknown) => {
        if (error instanceof FlyApiError && error.isNotFound) return;
        throw error;
      };
      try {
        if (resources.machineId) await fly.destroyMachine(resources.appName, resources.machineId).catch(gone);
        if (resources.volumeId) await fly.deleteVolume(resources.appName, resources.volumeId).catch(gone);
        await fly.deleteApp(resources.appName).catch(gone);
      } catch (error) {
        if (!(error instanceof FlyApiError)) throw error;
        this.logger.warn({ deploymentId: id, appName: resources.appName, reason: error.message }, 'n8n teardown failed');
        // The account's token or permissions were refused: their input. Fly failing on its side: a bad gateway.
        const status = error.status >= 400 && error.status < 500 ? 400 : 502;
        throw new ApiError(status, `Deployment failed to delete: ${error.message}`);
      }
    }
    // A concurrent teardown of the same deployment may have marked it first: the same answer as finding it deleted.
    if (!(await this.repository.markDeleted(actor, accountId, id))) throw ApiError.conflict(DEPLOYMENT_MESSAGES.alreadyDeleted);
    const deployment = (await this.repository.findForAccount(accountId, id))!;
    this.events.publish({ accountId, deployment });
    this.logger.log({ deploymentId: id, appName: resources.appName }, 'n8n deployment deleted');
    return deployment;
  }
}
