import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DeploymentsModule } from '../deployments/deployments.module';
import { SchedulerModule } from '../scheduler/scheduler.module';
import { EventsController } from './events.controller';
import { FailureAlerts } from './failure-alerts';

/** Tells users about executions: failure/recovery emails and the SSE stream. */
@Module({
  imports: [SchedulerModule, AuthModule, DeploymentsModule],
  controllers: [EventsController],
  providers: [FailureAlerts],
})
export class NotificationsModule {}
