import { Body, Controller, Get, HttpCode, Logger, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PLAN_IDS, type PlanId } from '@cronbeam/shared/plans';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AuditService } from '../audit/audit.service';
import { AuthService } from '../auth/auth.service';
import { UsersService } from '../auth/users.service';
import { TeamsService } from '../teams/teams.service';
import { requestOrigin, toUserView } from '../auth';
import type { UserView } from '@cronbeam/shared/auth/user-view';
import { AdminTokenGuard } from './admin-token.guard';


const setPlanSchema = z.strictObject(
  { plan: z.enum(PLAN_IDS, { error: `Plan must be one of ${PLAN_IDS.join(', ')}` }) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);


/** Operators' API (`npm run admin`): until billing exists, this is how a plan changes. */
@Controller('api/admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  private readonly logger = new Logger(AdminController.name);

  constructor(
    private readonly users: UsersService,
    private readonly teams: TeamsService,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
  ) {}

  @Get('users')
  async listUsers(): Promise<UserView[]> {
    const users = await this.users.list();
    const plans = await this.teams.plansOf(users.map((u) => u.id));
    return users.map((u) => toUserView(u, plans.get(u.id) ?? 'free'));
  }

  /** `user` is a user id or an email address; the plan is their personal account's (it has the user's id). */
  @Put('users/:user/plan')
  async setPlan(@Param('user') idOrEmail: string, @Body(new ZodPipe(setPlanSchema)) body: { plan: PlanId }, @Req() req: FastifyRequest): Promise<UserView> {
    const user = idOrEmail.includes('@') ? await this.users.findByEmail(idOrEmail) : isUuid(idOrEmail) ? await this.users.findById(idOrEmail) : null;
    if (!user) throw ApiError.notFound('User not found');
    const origin = requestOrigin(req);
    // The account's log shows it, in the change's transaction; the operator is no user or key of the account.
    const operator = { accountId: user.id, userId: null, keyId: null, ip: origin.ip, requestId: origin.requestId };
    const from = await this.teams.setPlan(user.id, body.plan, (tx, before) =>
      this.audit.record(tx, operator, { action: 'account.plan_changed', targetType: 'account', targetId: user.id, changes: before === body.plan ? {} : { plan: { before, after: body.plan } } }),
    );
    // The server log has a line for every plan change made outside billing too.
    this.logger.log({ userId: user.id, accountId: user.id, from, to: body.plan }, 'Operator changed a plan');
    return toUserView(user, body.plan);
  }

  /** The user must choose a new password at their next sign-in; their sessions end now. */
  @Post('users/:email/require-new-password')
  @HttpCode(200)
  async requireNewPassword(@Param('email') email: string, @Req() req: FastifyRequest) {
    await this.auth.requireNewPassword(email, requestOrigin(req));
    this.logger.log({ email }, 'Operator required a new password');
    return { message: 'A new password is required at the next sign-in' };
  }
}
