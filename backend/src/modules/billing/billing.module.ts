import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { QuotaModule } from '../quota/quota.module';
import { BillingEnabledGuard } from './billing-enabled.guard';
import { BillingWebhookController } from './billing-webhook.controller';
import { BillingWebhooksService } from './billing-webhooks.service';
import { BillingController, ProfileStatsController } from './billing.controller';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { StripeGateway } from './stripe-gateway';

/** Paid plans through Stripe: checkout, plan changes, cancellation, signed webhooks (owns the billing_* tables). */
@Module({
  imports: [AuditModule, AuthModule, JobsModule, QuotaModule, TeamsModule],
  controllers: [BillingController, ProfileStatsController, BillingWebhookController],
  providers: [StripeGateway, BillingRepository, BillingService, BillingWebhooksService, BillingEnabledGuard],
  exports: [BillingService],
})
export class BillingModule {}
