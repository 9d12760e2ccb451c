import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AuthModule } from '../auth/auth.module';
import { DeploymentEvents } from './deployment-events.service';
import { DeploymentsController } from './deployments.controller';
import { DeploymentsRepository } from './deployments.repository';
import { DeploymentsService } from './deployments.service';
import { FLY_MACHINES_API, FlyMachinesClient } from './fly-machines-client';
import { N8nProvisioner } from './n8n-provisioner';

/**
 * Self-hosted n8n on the account's Fly.io account. Exports the service (the
 * dashboard's monthly count) and the change events (the SSE stream).
 */
@Module({
  imports: [AuthModule, TeamsModule],
  controllers: [DeploymentsController],
  providers: [DeploymentsRepository, DeploymentsService, DeploymentEvents, N8nProvisioner, { provide: FLY_MACHINES_API, useClass: FlyMachinesClient }],
  exports: [DeploymentsService, DeploymentEvents],
})
export class DeploymentsModule {}
