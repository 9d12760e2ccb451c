import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { TeamsModule } from '../teams/teams.module';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminController } from './admin.controller';

@Module({
  imports: [AuditModule, AuthModule, TeamsModule],
  controllers: [AdminController],
  providers: [AdminTokenGuard],
})
export class AdminModule {}
