import { Controller, Get, Header } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { DatabaseProbeRepository } from './database-probe.repository';

@Controller()
export class HealthController {
  constructor(private readonly database: DatabaseProbeRepository) {}

  /** Liveness: the process answers. Public; the clients' connection badge calls it. */
  @Get('api/ping')
  @Header('Cache-Control', 'no-store')
  ping() {
    return { message: 'pong' };
  }

  /**
   * Readiness: the database answers too. Any failure of the probe query means
   * this instance cannot serve now: the same 503 (with Retry-After) that every
   * other endpoint answers while the database cannot be reached.
   */
  @Get('api/ready')
  @Header('Cache-Control', 'no-store')
  async ready() {
    try {
      await this.database.ping();
    } catch {
      throw ApiError.databaseUnavailable();
    }
    return { status: 'ready' };
  }
}
