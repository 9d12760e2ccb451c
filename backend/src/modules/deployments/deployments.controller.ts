import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import {
  deploymentRequestSchema,
  teardownRequestSchema,
  type ValidDeploymentRequest,
  type ValidTeardownRequest,
} from '@cronbeam/shared/deployments/deployment-rules';
import type { Deployment, DeploymentStarted } from '@cronbeam/shared/deployments/deployment-types';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditActor, type Actor } from '../audit';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { DeploymentsService } from './deployments.service';

/** Self-hosted n8n on the caller's Fly.io account (bearer token). */
@Controller('api/deploy/n8n')
@UseGuards(BearerAuthGuard)
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  /** 202: provisioning runs in the background; GET or the event stream shows its steps. */
  @Post()
  @HttpCode(202)
  start(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(deploymentRequestSchema)) body: ValidDeploymentRequest): Promise<DeploymentStarted> {
    return this.deployments.start(actor, user.accountId, user.email, body);
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  list(@CurrentUser() user: AuthenticatedUser): Promise<Deployment[]> {
    return this.deployments.list(user.accountId);
  }

  @Get(':id')
  @Header('Cache-Control', 'no-store')
  get(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<Deployment> {
    return this.deployments.get(user.accountId, id);
  }

  /** Tears the instance down with the Fly token supplied again (we never kept the first one). */
  @Delete(':id')
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @AuditActor() actor: Actor,
    @Param('id') id: string,
    @Body(new ZodPipe(teardownRequestSchema)) body: ValidTeardownRequest,
  ): Promise<{ message: string; deployment: Deployment }> {
    return { message: 'Deployment deleted', deployment: await this.deployments.teardown(actor, user.accountId, id, body.fly_token) };
  }
}
