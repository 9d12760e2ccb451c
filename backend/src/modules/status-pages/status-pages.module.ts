import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { RunsModule } from '../runs/runs.module';
import { PublicStatusController } from './public-status.controller';
import { PublicStatusService } from './public-status.service';
import { StatusHistoryService } from './status-history.service';
import { StatusBadgesController, StatusPagesController } from './status-pages.controller';
import { StatusPagesRepository } from './status-pages.repository';
import { StatusPagesService } from './status-pages.service';

/** Public status pages (with custom domains and an Atom feed of incidents) and SVG badges of jobs, monitors and pages. */
@Module({
  imports: [AuthModule, JobsModule, MonitorsModule, RunsModule],
  controllers: [StatusPagesController, StatusBadgesController, PublicStatusController],
  providers: [StatusPagesRepository, StatusPagesService, StatusHistoryService, PublicStatusService],
  exports: [StatusPagesService, PublicStatusService],
})
export class StatusPagesModule {}
