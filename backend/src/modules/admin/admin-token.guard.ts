import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/http/api-error';
import { AppConfig } from '../../config/app-config';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The operator API exists only when ADMIN_TOKEN is set (404 otherwise) and
 * requires `X-Admin-Token: <ADMIN_TOKEN>`, compared in constant time (the
 * digests have equal length whatever was sent).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(config: AppConfig) {
    this.expected = config.env.ADMIN_TOKEN ? digest(config.env.ADMIN_TOKEN) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.expected) throw ApiError.notFound();
    const sent = String(context.switchToHttp().getRequest<FastifyRequest>().headers['x-admin-token'] ?? '');
    if (!timingSafeEqual(digest(sent), this.expected)) throw ApiError.unauthorized('Invalid admin token');
    return true;
  }
}
