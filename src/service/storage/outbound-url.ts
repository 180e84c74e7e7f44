import dns, { type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent } from 'undici';

/**
 * Where the service may send webhooks and credit-check results. A callback URL comes from a
 * client, so without a policy the service posts signed bodies wherever it is told: its own
 * `/oauth`, the machine's other ports, the cloud metadata address. Addresses that are loopback,
 * private, link-local, unique-local, unspecified, multicast or reserved are refused, in any of the
 * spellings a URL allows (`127.1`, `0x7f000001`, `[::1]`, IPv4-mapped IPv6) and whatever a host
 * name resolves to, unless `OUTBOUND_ALLOWED` names the origin or the address. The check runs
 * when a callback URL is accepted and again at every delivery, and the delivery's connection only
 * goes to an address the check accepts at connect time (a name that resolves elsewhere the second
 * time, "DNS rebinding", is refused then).
 */

const refusedRanges: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['::', 96, 'ipv6'], // IPv4-compatible
  ['::ffff:0:0', 96, 'ipv6'], // IPv4-mapped: the IPv4 ranges again in another spelling
  ['64:ff9b::', 96, 'ipv6'], // NAT64
  ['2002::', 16, 'ipv6'], // 6to4
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];
// One list per family: Node matches an IPv4 address against IPv6 rules in its mapped form, so
// `::ffff:0:0/96` in a shared list would refuse every IPv4 address.
const refused = { ipv4: new BlockList(), ipv6: new BlockList() };
for (const [network, prefix, family] of refusedRanges) refused[family].addSubnet(network, prefix, family);

export type OutboundVerdict = { ok: true } | { ok: false; reason: string };

/** A URL for logs: its user name and password replaced, its query dropped. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) [parsed.username, parsed.password] = ['***', ''];
    parsed.search = '';
    return parsed.href;
  } catch {
    return '(invalid URL)';
  }
}

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

export class OutboundPolicy {
  private readonly origins = new Set<string>();
  private readonly hosts = new Set<string>();
  private readonly allowed = new BlockList();
  /** The dispatcher deliveries go through: its connections look names up through the policy. */
  readonly dispatcher: Agent;

  /**
   * `allowed`: origins (`http://127.0.0.1:8080`) or addresses/CIDRs (`10.0.0.0/8`) that may be
   * private anyway.
   */
  constructor(allowed: string[]) {
    for (const entry of allowed) {
      if (entry.includes('://')) {
        const url = new URL(entry);
        this.origins.add(url.origin);
        this.hosts.add(url.hostname.replace(/^\[|\]$/g, ''));
        continue;
      }
      const [address, prefix] = entry.split('/');
      const family = isIP(address);
      if (!family) throw new Error(`OUTBOUND_ALLOWED: "${entry}" is neither an origin nor an address`);
      this.allowed.addSubnet(address, prefix ? Number(prefix) : family === 6 ? 128 : 32, familyOf(address));
    }
    this.dispatcher = new Agent({ connect: { lookup: this.lookup } });
  }

  /** Why an address may not be called, or null. */
  private refusal(address: string): string | null {
    const family = familyOf(address);
    if (this.allowed.check(address, family)) return null;
    return refused[family].check(address, family)
      ? `${address} is a loopback, private or reserved address`
      : null;
  }

  /** The URL's scheme and every address its host stands for, against the policy. */
  async check(url: string): Promise<OutboundVerdict> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, reason: 'not a URL' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return { ok: false, reason: 'only http and https URLs are called' };
    if (this.origins.has(parsed.origin)) return { ok: true };
    // The URL parser has already turned 127.1, 0x7f000001 and the like into dotted quads.
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
      } catch {
        return { ok: false, reason: `${host} cannot be resolved` };
      }
    }
    for (const address of addresses) {
      const reason = this.refusal(address);
      if (reason) return { ok: false, reason };
    }
    return { ok: true };
  }

  /** `dns.lookup` for the delivery sockets: a name resolving to a refused address fails to connect. */
  private readonly lookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!this.hosts.has(hostname)) {
        for (const { address } of addresses) {
          const reason = this.refusal(address);
          if (reason) {
            return callback(Object.assign(new Error(`refused: ${reason}`), { code: 'EOUTBOUND' }), []);
          }
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };

  close() {
    return this.dispatcher.close();
  }
}
