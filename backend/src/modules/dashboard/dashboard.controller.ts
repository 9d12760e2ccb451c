import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import type { DashboardStats } from '@cronbeam/shared/jobs/job-types';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { DashboardService } from './dashboard.service';

@Controller('api/dashboard')
@UseGuards(BearerAuthGuard)
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  stats(@CurrentUser() user: AuthenticatedUser): Promise<DashboardStats> {
    return this.dashboard.stats(user.accountId);
  }
}
