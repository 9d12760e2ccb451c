import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Executions one user started in one usage period (a UTC calendar month, keyed by its first day). */
@Entity('usage_periods')
export class UsagePeriodEntity {
  @PrimaryColumn('uuid', { name: 'account_id' })
  accountId: string;

  /** The period's first day, 'YYYY-MM-DD'. */
  @PrimaryColumn('date', { name: 'period_start' })
  periodStart: string;

  @Column('integer', { default: 0 })
  executions: number;
}
