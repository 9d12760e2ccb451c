import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SecretsModule } from './common/crypto/secrets.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { HttpErrorFilter } from './common/http/http-error.filter';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { databaseOptions } from './database/database-options';
import { ReadDatabaseModule } from './database/read-database';
import { AccountsModule } from './modules/accounts/accounts.module';
import { AuditModule } from './modules/audit/audit.module';
import { AuditRoutesModule } from './modules/audit/audit-routes.module';
import { AuthModule } from './modules/auth/auth.module';
import { HealthModule } from './modules/health/health.module';
import { AdminModule } from './modules/admin/admin.module';
import { ApiKeysModule } from './modules/api-keys/api-keys.module';
import { DashboardModule } from './modules/dashboard/dashboard.module';
import { JobsModule } from './modules/jobs/jobs.module';
import { ProgModule } from './modules/prog/prog.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { SchedulerModule } from './modules/scheduler/scheduler.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { MailModule } from './modules/mail/mail.module';
import { SiteModule } from './modules/site/site.module';
import { BillingModule } from './modules/billing/billing.module';
import { DeploymentsModule } from './modules/deployments/deployments.module';
import { MonitorsModule } from './modules/monitors/monitors.module';
import { StatusPagesModule } from './modules/status-pages/status-pages.module';
import { MaintenanceModule } from './modules/maintenance/maintenance.module';
import { TeamsModule } from './modules/teams/teams.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** The PostgreSQL to use: DATABASE_URL or the embedded server's loopback address. */
  databaseUrl: string;
}

@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    const { config } = options;
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(databaseOptions(options.databaseUrl, config.env.DATABASE_POOL_SIZE)),
        ReadDatabaseModule.forRoot(),
        SecretsModule,
        RateLimitModule,
        HealthModule,
        MailModule.forRoot(config),
        SiteModule,
        AuthModule,
        AccountsModule,
        AuditModule,
        AuditRoutesModule,
        TeamsModule,
        JobsModule,
        ApiKeysModule,
        ProgModule,
        DashboardModule,
        AdminModule,
        MetricsModule,
        SchedulerModule,
        NotificationsModule,
        BillingModule,
        DeploymentsModule,
        MonitorsModule,
        StatusPagesModule,
        MaintenanceModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: HttpErrorFilter }],
    };
  }
}
