// Hosts for the tests across hosts (src/service/http/multi-host.test.ts): each process in a
// network namespace of its own, joined to this one by a bridge and veth pairs (root and iproute2
// needed), or, where namespaces cannot be made, on loopback addresses of their own (127.0.0.2, …).
// Either way each host has its own address, and what runs here (the test, a database proxy, a
// balancer, a webhook receiver) listens on `hostAddress`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import net from 'node:net';

export interface Hosts {
  /** How the hosts were made, and why not namespaces when they could not be. */
  kind: 'network namespaces' | 'loopback addresses';
  why: string;
  /** This process's address, which every host reaches. */
  hostAddress: string;
  /** Each host's address, by name. */
  address: Record<string, string>;
  /** Starts `node args` on that host (its own network namespace, or this one). */
  spawnNode(host: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess;
  /** Removes the namespaces and the bridge. */
  close(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** One namespace per name on a bridge of their own, in a /24 of 10.x.y.0 unused here. */
function namespaces(names: string[]): Hosts {
  const tag = `idv${randomBytes(3).toString('hex')}`;
  const used = execFileSync('ip', ['-4', '-o', 'addr'], { encoding: 'utf8' });
  let subnet = '';
  for (let i = 0; i < 50 && (!subnet || used.includes(`${subnet}.`)); i++)
    subnet = `10.${randomInt(200, 250)}.${randomInt(0, 256)}`;
  const bridge = `${tag}br`;
  const made: string[] = [];
  const close = () => {
    for (const ns of made) {
      try {
        ip('netns', 'del', ns);
      } catch {
        // already gone
      }
    }
    try {
      ip('link', 'del', bridge);
    } catch {
      // never made
    }
  };
  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    const address: Record<string, string> = {};
    names.forEach((name, i) => {
      const ns = `${tag}-${name}`;
      ip('netns', 'add', ns);
      made.push(ns);
      // The host end on the bridge here, the other end the namespace's eth0.
      ip('link', 'add', `${tag}${i}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip('link', 'set', `${tag}${i}`, 'master', bridge, 'up');
      ip('-n', ns, 'addr', 'add', `${subnet}.${i + 2}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      address[name] = `${subnet}.${i + 2}`;
    });
    return {
      kind: 'network namespaces',
      why: `ip netns ${tag}-*, veth pairs on the bridge ${bridge} (${subnet}.0/24)`,
      hostAddress: `${subnet}.1`,
      address,
      spawnNode: (host, args, env) =>
        // `ip netns exec` execs the command: the child's pid is node's (a SIGKILL reaches it).
        spawn('ip', ['netns', 'exec', `${tag}-${host}`, process.execPath, ...args], {
          env,
          stdio: ['ignore', 'ignore', 'inherit'],
        }),
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

function loopback(names: string[], why: string): Hosts {
  return {
    kind: 'loopback addresses',
    why,
    hostAddress: '127.0.0.1',
    address: Object.fromEntries(names.map((name, i) => [name, `127.0.0.${i + 2}`])),
    spawnNode: (_host, args, env) =>
      spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] }),
    close: () => undefined,
  };
}

/**
 * Hosts of these names: network namespaces where they can be made, loopback addresses otherwise
 * (or with MULTI_HOST_NETWORK=loopback).
 */
export function makeHosts(names: string[]): Hosts {
  if (process.env.MULTI_HOST_NETWORK === 'loopback') return loopback(names, 'MULTI_HOST_NETWORK=loopback');
  if (process.platform !== 'linux') return loopback(names, `no network namespaces on ${process.platform}`);
  try {
    return namespaces(names);
  } catch (error) {
    const message =
      (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message.split('\n')[0];
    return loopback(names, `network namespaces could not be made: ${message}`);
  }
}

/**
 * A TCP relay on `address` (port chosen) to `target`: how hosts in namespaces reach a server of
 * this one that listens on 127.0.0.1 only (the test's PostgreSQL). A connection closed on one side
 * is closed on the other, so a killed host's database sessions (and their locks) end.
 */
export async function tcpRelay(address: string, target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
