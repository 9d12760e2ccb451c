import { Global, Module } from '@nestjs/common';
import { MetricsAccess } from './metrics-access';
import { MetricsController } from './metrics.controller';
import { MetricsPort } from './metrics-port';
import { MetricsRegistry } from './metrics-registry';

/** /metrics (behind METRICS_TOKEN or on METRICS_PORT, see MetricsAccess) and the registry every module records its metrics in. */
@Global()
@Module({ controllers: [MetricsController], providers: [MetricsRegistry, MetricsAccess, MetricsPort], exports: [MetricsRegistry] })
export class MetricsModule {}
