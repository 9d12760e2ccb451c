import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MaintenanceWindowsController } from './maintenance-windows.controller';
import { MaintenanceWindowsRepository } from './maintenance-windows.repository';
import { MaintenanceWindowsService } from './maintenance-windows.service';

/** Maintenance windows: when the alerts of a job or monitor are muted and, if asked, a job's runs skipped. */
@Module({
  imports: [AuthModule, JobsModule],
  controllers: [MaintenanceWindowsController],
  providers: [MaintenanceWindowsRepository, MaintenanceWindowsService],
  exports: [MaintenanceWindowsService],
})
export class MaintenanceModule {}
