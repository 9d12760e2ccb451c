import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AlertChannelsModule } from '../alert-channels/alert-channels.module';
import { AuthModule } from '../auth/auth.module';
import { DeploymentsModule } from '../deployments/deployments.module';
import { JobsModule } from '../jobs/jobs.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { RunsModule } from '../runs/runs.module';
import { EventsController } from './events.controller';
import { EventStreamSlots } from './event-stream-slots';
import { JobAlertStatesRepository } from './job-alert-states.repository';
import { FailureAlerts } from './failure-alerts';
import { CertificateAlerts } from './certificate-alerts';

/** Tells users about executions: failure/recovery emails and the SSE stream. */
@Module({
  imports: [RunsModule, JobsModule, AuthModule, DeploymentsModule, AlertChannelsModule, MaintenanceModule, TeamsModule],
  controllers: [EventsController],
  providers: [JobAlertStatesRepository, FailureAlerts, CertificateAlerts, EventStreamSlots],
})
export class NotificationsModule {}
