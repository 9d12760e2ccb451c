/** The registry every module records its Prometheus metrics in (provided globally by MetricsModule). */
export { MetricsRegistry } from './metrics-registry';
