import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TeamsModule } from '../teams/teams.module';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminController } from './admin.controller';

@Module({
  imports: [AuthModule, TeamsModule],
  controllers: [AdminController],
  providers: [AdminTokenGuard],
})
export class AdminModule {}
