import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { TeamsModule } from '../teams/teams.module';
import { AccountsController, TeamAccountDeletionController } from './accounts.controller';
import { AccountsService } from './accounts.service';

@Module({ imports: [AuthModule, BillingModule, TeamsModule], controllers: [AccountsController, TeamAccountDeletionController], providers: [AccountsService] })
export class AccountsModule {}
