import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MaintenanceWindowsController } from './maintenance-windows.controller';
import { MaintenanceWindowsRepository } from './maintenance-windows.repository';
import { MaintenanceWindowsService } from './maintenance-windows.service';

/** Maintenance windows: when a job's failure alerts are muted and, if asked, its runs skipped. */
@Module({
  imports: [AuthModule, JobsModule],
  controllers: [MaintenanceWindowsController],
  providers: [MaintenanceWindowsRepository, MaintenanceWindowsService],
  exports: [MaintenanceWindowsService],
})
export class MaintenanceModule {}
