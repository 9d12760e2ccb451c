import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsRegistry } from './metrics-registry';

/** /metrics and the registry every module records its metrics in. */
@Global()
@Module({ controllers: [MetricsController], providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsModule {}
