import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobLimitService } from './job-limit.service';
import { PlanSlotsRepository } from './plan-slots.repository';
import { QuotaService } from './quota.service';
import { UsagePeriodEntity } from './usage-period.entity';
import { UsagePeriodsRepository } from './usage-periods.repository';

/** Plan limits (the job limit over jobs and monitors) and the monthly execution quota: owns `usage_periods`. */
@Module({
  imports: [TypeOrmModule.forFeature([UsagePeriodEntity])],
  providers: [UsagePeriodsRepository, PlanSlotsRepository, QuotaService, JobLimitService],
  exports: [QuotaService, JobLimitService],
})
export class QuotaModule {}
