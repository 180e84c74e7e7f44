import { createServer, type AddressInfo } from 'node:net';

/** A port free on 127.0.0.1 right now, for a child process that must be told its port up front. */
export async function freePort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
