import { Body, Controller, Get, Logger, Param, Put, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { PLAN_IDS, type PlanId } from '@shared/plans';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import type { UserEntity } from '../auth/user.entity';
import { UsersService } from '../auth/users.service';
import { AdminTokenGuard } from './admin-token.guard';

export interface AdminUserView {
  user_id: string;
  email: string;
  name: string;
  plan: PlanId;
  email_verified: boolean;
  created_at: string;
}

const setPlanSchema = z.strictObject(
  { plan: z.enum(PLAN_IDS, { error: `Plan must be one of ${PLAN_IDS.join(', ')}` }) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);

const view = (user: UserEntity): AdminUserView => ({
  user_id: user.id,
  email: user.email,
  name: user.name,
  plan: user.plan,
  email_verified: user.emailVerified,
  created_at: user.createdAt.toISOString(),
});

/** Operators' API (`npm run admin`): until billing exists, this is how a plan changes. */
@Controller('api/admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  private readonly logger = new Logger(AdminController.name);

  constructor(private readonly users: UsersService) {}

  @Get('users')
  async listUsers(): Promise<AdminUserView[]> {
    return (await this.users.list()).map(view);
  }

  /** `user` is a user id or an email address. */
  @Put('users/:user/plan')
  async setPlan(@Param('user') idOrEmail: string, @Body(new ZodPipe(setPlanSchema)) body: { plan: PlanId }): Promise<AdminUserView> {
    const user = idOrEmail.includes('@') ? await this.users.findByEmail(idOrEmail) : isUuid(idOrEmail) ? await this.users.findById(idOrEmail) : null;
    if (!user) throw ApiError.notFound('User not found');
    await this.users.setPlan(user.id, body.plan);
    // An audit line for every plan change made outside billing.
    this.logger.log({ userId: user.id, from: user.plan, to: body.plan }, 'Operator changed a plan');
    return view({ ...user, plan: body.plan });
  }
}
