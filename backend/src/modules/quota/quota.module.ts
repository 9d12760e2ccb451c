import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaService } from './quota.service';
import { UsagePeriodEntity } from './usage-period.entity';
import { UsagePeriodsRepository } from './usage-periods.repository';

/** Plan limits and the monthly execution quota: owns `usage_periods`. */
@Module({
  imports: [TypeOrmModule.forFeature([UsagePeriodEntity])],
  providers: [UsagePeriodsRepository, QuotaService],
  exports: [QuotaService],
})
export class QuotaModule {}
