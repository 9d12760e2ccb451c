import { createServer, type Server, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { WarmConnector } from './warm-connector';

/** A plain HTTP/1.1 server on loopback that counts the TCP connections it accepted. */
async function countingServer(): Promise<{ url: URL; accepted: () => number; close: () => Promise<void> }> {
  let accepted = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/`),
    accepted: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const until = async (test: () => boolean) => {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('WarmConnector', () => {
  it('hands the pool the connections it opened ahead of time instead of connecting again', async () => {
    const server = await countingServer();
    const connector = new WarmConnector({ timeout: 5_000 });
    const agent = new Agent({ connections: 4, connect: connector.connect });
    try {
      connector.open(server.url, 4);
      await until(() => server.accepted() === 4 && connector.ready(server.url) === 4);
      expect(connector.ready(server.url)).toBe(4);

      const answers = await Promise.all(Array.from({ length: 8 }, () => request(server.url, { dispatcher: agent }).then((r) => r.body.text())));
      expect(answers).toEqual(Array(8).fill('ok'));
      expect(server.accepted()).toBe(4); // the warm sockets carried every request
      expect(connector.ready(server.url)).toBe(0);
    } finally {
      connector.close();
      await agent.close();
      await server.close();
    }
  });

  it('forgets a stashed connection once the server closes it', async () => {
    const server = await countingServer();
    const connector = new WarmConnector({ timeout: 5_000 });
    const agent = new Agent({ connections: 1, connect: connector.connect });
    try {
      connector.open(server.url, 1);
      await until(() => connector.ready(server.url) === 1);
      await server.close(); // the server drops the warm socket
      await until(() => connector.ready(server.url) === 0);
      expect(connector.ready(server.url)).toBe(0);
    } finally {
      connector.close();
      await agent.close();
    }
  });
});
