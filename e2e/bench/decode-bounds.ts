// Issue 34's heavy decodes against the service as `npm run service` runs it. Sections (argument,
// comma-separated; all by default):
// - `scans`: an ordinary passport's send-input alone, then 3 s after two 50,000-scan progressive
//   JPEGs of two other verifications (issue 34 item 2);
// - `pngs`: resident memory idle, at its peak and DECODE_AFTER_SECONDS (30) after three 100 MP
//   16-bit PNGs of 0.9 MB sent at once as three verifications' passports (item 6).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { freePort } from '../fixtures/free-port';
import { sample } from '../fixtures/samples';
import { scanBomb } from '../fixtures/scan-bomb';
import { benchAuth, benchIdentity, startBenchService } from './lib/bench-service';
import { sleep, stopNode, waitForHttp } from './lib/node-process';
import { rssKb, rssPeakSampler } from './lib/proc-stats';

const AFTER = Number(process.env.DECODE_AFTER_SECONDS ?? 30);
type Answer = { result: boolean; error?: { code: string; message: string } }[];

async function withService(run: (url: string, auth: Record<string, string>, pid: number) => Promise<void>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'idv-decode-bounds-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = startBenchService(port, dir, { PROCESSING_STEP_MS: '20' });
  try {
    await waitForHttp(`${url}/health`, service);
    await run(url, await benchAuth(url), service.pid!);
  } finally {
    await stopNode(service);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One passport send-input of a new global-passport verification: its answer and time. */
async function sendPassport(url: string, auth: Record<string, string>, bytes: Uint8Array) {
  const identity = await benchIdentity(url, auth, 'global-passport');
  const form = new FormData();
  const descriptor = { type: 'passport', country: 'GB', page: 'front', filename: 'passport.jpg' };
  form.append('inputs', JSON.stringify([{ inputType: 'document-photo', group: 0, data: descriptor }]));
  form.append('document', new Blob([new Uint8Array(bytes)]), 'passport.jpg');
  const started = Date.now();
  const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  const answer = ((await response.json()) as Answer)[0];
  const outcome = answer?.result ? 'accepted' : (answer?.error?.code ?? String(response.status));
  return { outcome, seconds: (Date.now() - started) / 1000, message: answer?.error?.message };
}

async function scans() {
  const passport = readFileSync(sample('gb-passport.jpg').path);
  const bomb = scanBomb(50_000);
  await withService(async (url, auth) => {
    await sendPassport(url, auth, passport);
    const alone = await sendPassport(url, auth, passport);
    const bombs = [1, 2].map(() => sendPassport(url, auth, bomb));
    await sleep(3000);
    const during = await sendPassport(url, auth, passport);
    const attacks = await Promise.all(bombs);
    console.log(
      `scans: ordinary passport alone ${alone.seconds.toFixed(1)} s (${alone.outcome}); ` +
        `3 s after two 50,000-scan JPEGs ${during.seconds.toFixed(1)} s (${during.outcome}); ` +
        `the bombs ${attacks.map((a) => `${a.seconds.toFixed(1)} s ${a.outcome}`).join(', ')}`,
    );
  });
}

async function pngs() {
  const png = await sharp({
    create: { width: 10000, height: 10000, channels: 3, background: { r: 122, g: 80, b: 48 } },
  })
    .toColourspace('rgb16')
    .png({ compressionLevel: 9 })
    .toBuffer();
  const passport = readFileSync(sample('gb-passport.jpg').path);
  await withService(async (url, auth, pid) => {
    await sendPassport(url, auth, passport);
    await sleep(2000);
    const idle = rssKb(pid) / 1024;
    const peak = rssPeakSampler(pid, 20);
    const answers = await Promise.all([1, 2, 3].map(() => sendPassport(url, auth, png)));
    const peakMb = peak.stop() / 1024;
    const right = rssKb(pid) / 1024;
    await sleep(AFTER * 1000);
    const after = rssKb(pid) / 1024;
    console.log(
      `pngs (3 × 100 MP 16-bit, ${(png.length / 1024 / 1024).toFixed(1)} MB each): idle ${idle.toFixed(0)} MB, ` +
        `peak ${peakMb.toFixed(0)} MB, at the answers ${right.toFixed(0)} MB, ${AFTER} s after ${after.toFixed(0)} MB ` +
        `(${answers.map((a) => `${a.seconds.toFixed(1)} s ${a.outcome}`).join(', ')})`,
    );
  });
}

const sections = { scans, pngs };
for (const name of (process.argv[2] ?? Object.keys(sections).join(',')).split(',')) {
  await sections[name as keyof typeof sections]();
}
