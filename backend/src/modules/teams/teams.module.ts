import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { AccountsRepository } from './accounts.repository';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';
import { MembersRepository } from './members.repository';
import { MembershipService } from './membership.service';
import { TeamsService } from './teams.service';
import { InvitationsController, MyAccountsController, TeamAccountController } from './team-accounts.controller';

/**
 * Accounts, which own every resource (jobs, monitors, channels, keys, the
 * plan), and their members and invitations: owns `accounts`,
 * `account_members` and `account_invitations`.
 */
@Module({
  imports: [AuthModule, ApiKeysModule, AuditModule],
  controllers: [MyAccountsController, TeamAccountController, InvitationsController],
  providers: [AccountsRepository, MembersRepository, InvitationsRepository, MembershipService, InvitationsService, TeamsService],
  exports: [TeamsService, MembershipService],
})
export class TeamsModule {}
