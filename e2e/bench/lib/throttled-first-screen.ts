import type { Browser, Request } from '@playwright/test';

/** A network as Chromium's DevTools emulates it (CDP Network.emulateNetworkConditions). */
export interface NetworkProfile {
  name: string;
  /** Added to every request's round trip, ms. */
  latencyMs: number;
  downloadBitsPerSecond: number;
  uploadBitsPerSecond: number;
  /** Chromium's CPU slowdown (4: a mid-range phone against this machine). */
  cpuSlowdown: number;
  /** The usable moment's median target, ms. */
  targetMs?: number;
}

/** DevTools' "Fast 3G", and a "Slow 4G" of 150 ms and 3.6 Mbit/s, each with 4× CPU slowdown. */
export const phoneProfiles: NetworkProfile[] = [
  {
    name: 'no throttling',
    latencyMs: 0,
    downloadBitsPerSecond: -1,
    uploadBitsPerSecond: -1,
    cpuSlowdown: 1,
  },
  {
    name: 'Slow 4G + 4× CPU',
    latencyMs: 150,
    downloadBitsPerSecond: 3.6e6,
    uploadBitsPerSecond: 1.35e6,
    cpuSlowdown: 4,
    targetMs: 1200,
  },
  {
    name: 'Fast 3G + 4× CPU',
    latencyMs: 562.5,
    downloadBitsPerSecond: 1.44e6,
    uploadBitsPerSecond: 675e3,
    cpuSlowdown: 4,
    targetMs: 2500,
  },
];

/** One request of the page: when it started and ended, ms after the navigation started. */
export interface ChainLink {
  start: number;
  end: number;
  method: string;
  path: string;
}

export interface FirstScreenRun {
  /** When the screen was usable, ms after the navigation started. */
  usableMs: number;
  chain: ChainLink[];
}

/**
 * Opens `url` in a fresh phone-sized context (390×844, cache off) under `profile` and times it until
 * `usable` (a button's name) is on screen, with every request started before that moment.
 */
export async function timeFirstScreen(
  browser: Browser,
  url: string,
  usable: string,
  profile: NetworkProfile,
): Promise<FirstScreenRun> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    // As a phone's browser over HTTPS asks (Chromium asks for br on http://127.0.0.1 only if told).
    extraHTTPHeaders: { 'accept-encoding': 'gzip, deflate, br' },
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latencyMs,
      // CDP takes bytes per second; -1 turns the limit off.
      downloadThroughput: profile.downloadBitsPerSecond < 0 ? -1 : profile.downloadBitsPerSecond / 8,
      uploadThroughput: profile.uploadBitsPerSecond < 0 ? -1 : profile.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    const requests: Request[] = [];
    page.on('request', (request) => void requests.push(request));
    await page.goto(url, { waitUntil: 'commit' });
    const moment = await page.waitForFunction(
      (name) =>
        [...document.querySelectorAll('button')].some(
          (b) => b.textContent?.trim() === name && b.getClientRects().length > 0,
        ) && { at: performance.now(), origin: performance.timeOrigin },
      usable,
      { polling: 'raf', timeout: 60_000 },
    );
    const { at, origin } = (await moment.jsonValue()) as { at: number; origin: number };
    const chain: ChainLink[] = [];
    for (const request of requests) {
      // Its timing is known once it has answered (a preload may still be under way: waited for).
      await request.response().catch(() => null);
      const timing = request.timing();
      const start = timing.startTime - origin;
      if (timing.startTime < 0 || start > at) continue;
      const end = start + Math.max(0, timing.responseEnd);
      const address = new URL(request.url());
      chain.push({ start, end, method: request.method(), path: address.pathname });
    }
    chain.sort((a, b) => a.start - b.start);
    return { usableMs: at, chain };
  } finally {
    await context.close();
  }
}

const ms = (value: number) => value.toFixed(0).padStart(5);

/** When the last request the screen waited for ended: the network's share of the usable moment. */
const networkDone = (run: FirstScreenRun) =>
  Math.max(0, ...run.chain.filter((link) => link.path !== '/favicon.svg').map((link) => link.end));

/** The runs of each profile with their median, and the request chain of the median run. */
export function printFirstScreenRuns(
  title: string,
  results: { profile: NetworkProfile; runs: FirstScreenRun[] }[],
) {
  console.log(`\n${title}`);
  console.log('  profile                 runs (ms)                 median   network done   target');
  for (const { profile, runs } of results) {
    const sorted = [...runs].sort((a, b) => a.usableMs - b.usableMs);
    const median = sorted[Math.floor(sorted.length / 2)];
    const target = profile.targetMs
      ? `≤ ${profile.targetMs} ms: ${median.usableMs <= profile.targetMs ? 'met' : 'MISSED'}`
      : '';
    const network = runs.map(networkDone).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    const list = runs.map((r) => ms(r.usableMs)).join(' ');
    console.log(
      `  ${profile.name.padEnd(22)}  ${list.padEnd(24)}  ${ms(median.usableMs)}   ${ms(network)} ms       ${target}`,
    );
  }
  for (const { profile, runs } of results) {
    const sorted = [...runs].sort((a, b) => a.usableMs - b.usableMs);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`  request chain, median run of ${profile.name} (start → end, ms after navigation):`);
    for (const link of median.chain)
      console.log(
        `    ${ms(link.start)} → ${ms(link.end)}  ${link.method === 'GET' ? '' : `${link.method} `}${link.path}`,
      );
    console.log(`    usable at ${median.usableMs.toFixed(0)} ms`);
  }
}
