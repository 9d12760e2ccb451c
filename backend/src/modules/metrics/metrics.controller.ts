import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../common/http/api-error';
import { MetricsAccess } from './metrics-access';
import { MetricsRegistry } from './metrics-registry';

@Controller()
export class MetricsController {
  constructor(
    private readonly registry: MetricsRegistry,
    private readonly access: MetricsAccess,
  ) {}

  /** Prometheus exposition: execution outcomes, dispatch lateness, in-flight requests, queue depth, process stats. */
  @Get('metrics')
  async metrics(@Headers('authorization') authorization: string | undefined, @Res() res: FastifyReply): Promise<void> {
    const answer = this.access.publicAnswer(authorization);
    if (answer === 'not-found') throw ApiError.notFound();
    if (answer === 'unauthorized') throw new ApiError(401, 'A valid metrics token is required', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    res.header('Content-Type', this.registry.contentType);
    res.header('Cache-Control', 'no-store');
    res.send(await this.registry.metrics());
  }
}
