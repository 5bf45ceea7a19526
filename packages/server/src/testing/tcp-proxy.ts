import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real PostgreSQL, so a test can take the database away from a server
 * process (a network outage: open connections cut, new ones refused) and give it back, without
 * touching the database other test files share.
 */
export interface TcpProxy {
  port: number;
  /** Cuts every open connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let down = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() { down = false; },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
