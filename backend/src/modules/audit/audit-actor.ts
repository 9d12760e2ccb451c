import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/http/api-error';
import { clientIp, type RequestWithUser } from '../auth';
import type { Actor } from './actor';

export type { Actor };

/**
 * `@AuditActor() actor: Actor` in a controller behind an auth guard: the
 * caller as the audit log records it, passed on to the service method that
 * changes something (and from there to the statement that writes the entry).
 */
export const AuditActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest & RequestWithUser>();
  const user = req.user;
  if (!user) throw ApiError.unauthorized('User is not authenticated');
  return { accountId: user.accountId, userId: user.id, keyId: user.keyId ?? null, ip: clientIp(req), requestId: req.id ?? null };
});
