import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { MetricsRegistry } from './metrics-registry';

@Controller()
export class MetricsController {
  constructor(private readonly registry: MetricsRegistry) {}

  /** Prometheus exposition: execution outcomes, dispatch lateness, in-flight requests, queue depth, process stats. */
  @Get('metrics')
  async metrics(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await this.registry.metrics());
  }
}
