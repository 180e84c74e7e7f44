// Memory after a burst: the service as `npm run service` runs it, resident memory idle (after one
// ordinary flow), at its peak during the burst, and MEMORY_AFTER_SECONDS (60) after. Bursts:
// `bombs` (6 progressive JPEGs of 10000×9999, quality 20, 4:4:4, as selfies: issue 21's memory
// bomb) and `flows` (20 global-passport flows in one send-input each, at once).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { freePort } from '../fixtures/free-port';
import { noisePhoto } from '../fixtures/noise-photo';
import { sample } from '../fixtures/samples';
import { globalPassportInputs } from '../fixtures/send-input-form';
import { benchAuth, benchIdentity, startBenchService } from './lib/bench-service';
import { sleep, stopNode, waitForHttp } from './lib/node-process';
import { rssKb, rssPeakSampler } from './lib/proc-stats';

const AFTER = Number(process.env.MEMORY_AFTER_SECONDS ?? 60);

/** Issue 21's bomb: 1.2 MB of progressive JPEG whose decode holds a 600 MB coefficient buffer. */
export const progressiveBomb = () =>
  sharp({ create: { width: 10000, height: 9999, channels: 3, background: { r: 120, g: 80, b: 40 } } })
    .jpeg({ progressive: true, quality: 20, chromaSubsampling: '4:4:4' })
    .toBuffer();

async function burst(kind: 'bombs' | 'flows') {
  const dir = mkdtempSync(path.join(tmpdir(), 'idv-burst-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = startBenchService(port, dir, { PROCESSING_STEP_MS: '20' });
  try {
    await waitForHttp(`${url}/health`, service);
    const auth = await benchAuth(url);
    const passport = readFileSync(sample('gb-passport.jpg').path);
    const selfie = readFileSync(sample('selfie.jpg').path);
    const residency = await noisePhoto(2900, 2100, { quality: 85, seed: 7 });
    const bomb = kind === 'bombs' ? await progressiveBomb() : undefined;
    const flow = async (selfieBytes: Uint8Array) => {
      const identity = await benchIdentity(url, auth, 'global-passport');
      const form = new FormData();
      form.append('inputs', JSON.stringify(globalPassportInputs));
      form.append('document', new Blob([new Uint8Array(passport)]), 'passport.jpg');
      form.append('document', new Blob([new Uint8Array(residency)]), 'residency.jpg');
      form.append('selfie', new Blob([new Uint8Array(selfieBytes)]), 'selfie.jpg');
      const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      return (await response.json()) as { result: boolean; error?: { code: string } }[];
    };
    await flow(selfie);
    await sleep(2000);
    const idle = rssKb(service.pid!) / 1024;
    const peak = rssPeakSampler(service.pid!, 20);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: kind === 'bombs' ? 6 : 20 }, () => flow(bomb ?? selfie)),
    );
    const took = (Date.now() - started) / 1000;
    const peakMb = peak.stop() / 1024;
    await sleep(AFTER * 1000);
    const after = rssKb(service.pid!) / 1024;
    const selfieCodes = [...new Set(answers.map((a) => a[2]?.error?.code ?? String(a[2]?.result)))];
    console.log(
      `${kind}: idle ${idle.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB, ${AFTER} s after ${after.toFixed(0)} MB ` +
        `(burst ${took.toFixed(1)} s; selfie answers ${selfieCodes.join(', ')})`,
    );
    return { idle, peak: peakMb, after };
  } finally {
    await stopNode(service);
    rmSync(dir, { recursive: true, force: true });
  }
}

const kinds = (process.argv[2] ?? 'bombs,flows').split(',') as ('bombs' | 'flows')[];
for (const kind of kinds) await burst(kind);
