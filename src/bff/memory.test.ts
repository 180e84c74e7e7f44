import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffErrorSchema, createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import { MAX_FILE_BYTES } from '@/shared/limits';
import { freePort } from '../../e2e/fixtures/free-port';
import { sendInputForm } from '../../e2e/fixtures/send-input-form';
import { streamedMultipart } from '../../e2e/fixtures/streamed-multipart';
import { passportPhoto } from '../../e2e/fixtures/face-photo';
import { Browser, eventually, makeImage, secrets, ServiceProcess } from './testing/harness';

// The BFF in a process of its own, as `npm start` runs it, so that its memory can be read from
// /proc while a 60 MB upload goes through it: streamed on and refused at the 50 MB file bound,
// never held. (The BFF's throughput and memory figures are bench:proxy's; this only tells a
// streaming proxy from one that buffers the body.)
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

let dataDir: string;
let service: ServiceProcess;
let bff: ChildProcess;
let bffUrl: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'idv-bff-memory-'));
  const [servicePort, bffPort] = [await freePort(), await freePort()];
  bffUrl = `http://127.0.0.1:${bffPort}`;
  service = new ServiceProcess(servicePort, path.join(dataDir, 'service'), {
    SERVICE_WEBHOOK_URL: `${bffUrl}/webhooks/verification`,
  });
  await service.start();
  bff = spawn(process.execPath, ['--import', 'tsx', 'src/bff/main.ts'], {
    env: {
      ...process.env,
      ...secrets,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(bffPort),
      UPSTREAM_URL: service.url,
      DATA_DIR: path.join(dataDir, 'bff'),
      STATIC_DIR: 'none',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await eventually(
    async () => ((await fetch(`${bffUrl}${bffPaths.health}`)).ok ? true : undefined),
    30_000,
    'the BFF',
  );
});
afterAll(async () => {
  if (bff && bff.exitCode === null) {
    await new Promise((resolve) => {
      bff.once('exit', resolve);
      bff.kill('SIGTERM');
    });
  }
  await service?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!existsSync('/proc/self/status'))('the BFF process', () => {
  it('streams a 60 MB upload to its refusal without its memory growing by the upload', async () => {
    const browser = new Browser(bffUrl);
    const created = createdVerificationSchema.parse(
      await (await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
    );
    const inputs = [
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'passport', country: 'AR', page: 'front', filename: 'big.jpg' },
      },
    ];
    // Warm the path (token, lazy code) with a first photo, then take the resting size.
    const warm = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: sendInputForm(inputs, [{ field: 'document', name: 'big.jpg', bytes: await makeImage(11) }]),
    });
    expect(warm.status).toBe(201);
    const pid = bff.pid!;
    let resting = 0;
    for (let i = 0; i < 10; i++) {
      resting = Math.max(resting, rssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    let peak = resting;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 5);
    try {
      const { body, contentType } = streamedMultipart(
        inputs,
        'document',
        'big.jpg',
        60 * 1024 * 1024,
        await makeImage(12),
      );
      const res = await browser.fetch(bffPaths.sendInput(created.identity), {
        method: 'POST',
        body,
        headers: { 'content-type': contentType },
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(bffErrorSchema.parse(await res.json()).code).toBe('file_too_large');
    } finally {
      clearInterval(sampler);
    }
    // Holding the 50 MB that went through before the refusal would add at least that much (62 MB
    // when tried); streaming adds 13–16 MB of short-lived socket buffers.
    expect(
      peak - resting,
      `RSS ${resting.toFixed(1)} MB at rest, ${peak.toFixed(1)} MB at peak`,
    ).toBeLessThan((0.8 * MAX_FILE_BYTES) / (1024 * 1024));

    // And the same person's next, normal upload goes through.
    const again = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      // A passport the service accepts: its MRZ says ARG.
      body: sendInputForm(inputs, [
        { field: 'document', name: 'big.jpg', bytes: await passportPhoto('ARG') },
      ]),
    });
    expect(again.status).toBe(201);
    expect(sendInputResponseSchema.parse(await again.json())[0].result).toBe(true);
  });
});
