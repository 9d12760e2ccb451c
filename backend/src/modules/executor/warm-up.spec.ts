import { connect, createServer, type Server, type Socket } from 'node:net';
import { AppConfig } from '../../config/app-config';
import { ExecutorSettings } from './executor-settings';
import { HttpExecutor } from './http-executor.service';
import { LoopbackSink } from './loopback-sink';
import { TargetPolicy } from './target-policy.service';

/** A loopback HTTP/1.1 server that counts the requests it answered. */
async function countingServer(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', () => {
      requests++;
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/job`,
    requests: () => requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The executor as a server with the default target rules builds it: loopback and private addresses refused. */
function guardedExecutor(): HttpExecutor {
  const config = AppConfig.fromEnvironment({ NODE_ENV: 'test', ALLOW_PRIVATE_TARGETS: 'false', EXECUTION_TIMEOUT_MS: '5000' });
  const settings = new ExecutorSettings(config);
  return new HttpExecutor(settings, new TargetPolicy(config, settings), config);
}

describe('HttpExecutor start-up warm-up', () => {
  it('sends its requests to its own loopback sink while jobs stay barred from loopback', async () => {
    const executor = guardedExecutor();
    const server = await countingServer();
    try {
      expect(await executor.warmUp({ inFlight: 64, stop: () => false, requests: 300 })).toBe(300);

      const job = executor.prepare({ executionId: 'run-1', url: server.url, method: 'GET', headers: {}, body: '' });
      const result = await executor.execute(job);
      expect(result.success).toBe(false);
      expect(result.errorMessage).toMatch(/^Blocked: 127\.0\.0\.1 is a loopback, private, link-local, metadata or reserved address/);
      expect(server.requests()).toBe(0);
    } finally {
      await server.close();
      await executor.onApplicationShutdown();
    }
  });

  it('sends nothing under test unless asked for a number: servers start many times a test run', async () => {
    const executor = guardedExecutor();
    try {
      expect(await executor.warmUp({ inFlight: 64, stop: () => false })).toBe(0);
    } finally {
      await executor.onApplicationShutdown();
    }
  });

  it('asks for one full collection, after its first phase', async () => {
    const executor = guardedExecutor();
    let collections = 0;
    let roundsBeforeCollection = -1;
    let rounds = 0;
    try {
      const sent = await executor.warmUp({
        inFlight: 64,
        stop: () => false,
        // Asked once before each round: counts them.
        pause: () => {
          rounds++;
          return false;
        },
        collect: () => {
          collections++;
          roundsBeforeCollection = rounds;
        },
        requests: 300,
      });
      expect(sent).toBe(300);
      expect(collections).toBe(1);
      expect(roundsBeforeCollection).toBeGreaterThan(0);
      expect(roundsBeforeCollection).toBeLessThan(rounds);
    } finally {
      await executor.onApplicationShutdown();
    }
  });

  it('sends nothing while paused, then goes on', async () => {
    const executor = guardedExecutor();
    let paused = true;
    let askedWhilePaused = 0;
    try {
      const warming = executor.warmUp({ inFlight: 64, stop: () => false, pause: () => (paused ? ++askedWhilePaused > 0 : false), requests: 128 });
      while (askedWhilePaused < 5) await new Promise((resolve) => setTimeout(resolve, 5));
      const sentSoFar = await Promise.race([warming, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 50))]);
      expect(sentSoFar).toBe('pending');
      paused = false;
      expect(await warming).toBe(128);
    } finally {
      await executor.onApplicationShutdown();
    }
  });

  it('stops as soon as it is told to (an instant is near)', async () => {
    const executor = guardedExecutor();
    let asked = 0;
    try {
      const sent = await executor.warmUp({ inFlight: 64, stop: () => ++asked > 3, requests: 100_000 });
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(1_000);
    } finally {
      await executor.onApplicationShutdown();
    }
  });

  it('closes its sink when it returns: nothing listens on that port afterwards', async () => {
    const sink = await LoopbackSink.open();
    const { port } = new URL(sink.origin);
    await sink.close();
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => resolve('connected'));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
