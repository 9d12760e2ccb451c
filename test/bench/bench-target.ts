import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';

interface Batch {
  paths: string[];
  times: number[];
}

/**
 * The benchmark's HTTP target (bench-target-server.ts), in a worker thread.
 * Each request is timestamped there as its head arrives; the timestamps reach
 * `onRequest` in batches, a few milliseconds later.
 */
export class BenchTarget {
  private constructor(
    private readonly worker: Worker,
    readonly url: string,
  ) {}

  /** `onRequest(path, arrivedAt)`: arrivedAt is epoch milliseconds with sub-millisecond precision. */
  static async start(onRequest: (path: string, arrivedAt: number) => void): Promise<BenchTarget> {
    // The worker inherits this process's execArgv, so it loads TypeScript the same way (-r @swc-node/register).
    const worker = new Worker(path.join(__dirname, 'bench-target-server.ts'));
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (message: { port: number }) => resolve(message.port));
    });
    worker.on('message', (batch: Batch) => {
      for (let i = 0; i < batch.paths.length; i++) onRequest(batch.paths[i], batch.times[i]);
    });
    return new BenchTarget(worker, `http://127.0.0.1:${port}`);
  }

  /**
   * Sends the target a few thousand requests of its own, so its code is
   * compiled before anything is measured: a cold scenario measures the
   * scheduler's first burst, not the target's. Their paths are not job paths
   * (/b?n=), so they are not counted.
   */
  async warmUp(requests = 6_000, connections = 32): Promise<void> {
    const pool = new Pool(this.url, { connections, pipelining: 1 });
    try {
      let sent = 0;
      const worker = async () => {
        while (sent < requests) {
          sent++;
          const { body } = await pool.request({ path: '/warm-target', method: 'GET' });
          await body.dump();
        }
      };
      await Promise.all(Array.from({ length: connections }, worker));
    } finally {
      await pool.close();
    }
  }

  /** Stops the server; the last batch of arrivals is delivered before this resolves. */
  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage('close');
    await exited;
  }
}
