import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AccountsRepository } from './accounts.repository';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';
import { MembersRepository } from './members.repository';
import { MembershipService } from './membership.service';
import { InvitationsController, MyAccountsController, TeamAccountController } from './team-accounts.controller';

/** Accounts and their members and invitations: owns `accounts`, `account_members` and `account_invitations`. */
@Module({
  imports: [AuthModule],
  controllers: [MyAccountsController, TeamAccountController, InvitationsController],
  providers: [AccountsRepository, MembersRepository, InvitationsRepository, MembershipService, InvitationsService],
})
export class TeamsModule {}
