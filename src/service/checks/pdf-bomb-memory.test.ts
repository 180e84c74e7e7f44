import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/fixtures/free-port';
import { samplePath } from '../../../e2e/fixtures/samples';
import { sendInputForm } from '../../../e2e/fixtures/send-input-form';

// Two PDF bombs at once against the service as `npm run service` runs it, its resident memory read
// from /proc while they are checked and 10 s after. BOMB_MB sizes each bomb's inflated content.
const BOMB_MB = Number(process.env.BOMB_MB ?? 1024);
const MB = 1024 * 1024;

const secrets = { SERVICE_CLIENT_ID: 'bomb-test-client', SERVICE_CLIENT_SECRET: 'bomb-test-client-secret' };

const rssMb = (pid: number) => {
  try {
    return (Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096) / MB;
  } catch {
    return 0;
  }
};
const childrenOf = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A zlib stream inflating to `mb` MB of zeros, made without holding them: one flushed raw block of
 * 1 MB repeated (a full flush resets the window, so the blocks stand alone), then the final block.
 * The trailing checksum is left out; pdf.js does not read it.
 */
function zlibBomb(mb: number) {
  const block = deflateRawSync(Buffer.alloc(MB), { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array<Buffer>(mb).fill(block),
    Buffer.from([0x03, 0x00]),
  ]);
}

/** A one-page PDF whose page content is `data` under `filters`; `loneCr` ends the `stream` line with CR only. */
async function bombPdf(data: Buffer, filters: string[], loneCr: boolean) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const dict = doc.context.obj({
    Filter: filters.length === 1 ? PDFName.of(filters[0]) : filters.map((f) => PDFName.of(f)),
    Length: data.length,
  });
  const ref = doc.context.register(PDFRawStream.of(dict, data));
  page.node.set(PDFName.of('Contents'), ref);
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  if (loneCr) {
    const at = bytes.indexOf(data.subarray(0, 16));
    expect(bytes.toString('latin1', at - 7, at)).toBe('stream\n');
    bytes[at - 1] = 0x0d;
  }
  return bytes;
}

let child: ChildProcess;
let url: string;
let token: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'idv-bomb-'));

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
    env: {
      ...process.env,
      ...secrets,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      SERVICE_PORT: String(port),
      DATA_DIR: dataDir,
      SERVICE_WEBHOOK_URL: 'none',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/v2/flows`).then(
        () => true,
        () => false,
      )
    )
      break;
    if (i > 600) throw new Error('the service did not start');
    await sleep(100);
  }
  const basic = Buffer.from(`${secrets.SERVICE_CLIENT_ID}:${secrets.SERVICE_CLIENT_SECRET}`).toString(
    'base64',
  );
  const response = await fetch(`${url}/oauth`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  token = ((await response.json()) as { access_token: string }).access_token;
}, 120_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function sendIncomeProof(bytes: Uint8Array) {
  const auth = { authorization: `Bearer ${token}` };
  const created = await fetch(`${url}/v2/verifications`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ flowId: 'br-bank' }),
  });
  const { identity } = (await created.json()) as { identity: string };
  const inputs = [
    {
      inputType: 'custom-document-photo',
      group: 1,
      data: { type: 'custom-proof-of-income', page: 'multi', filename: 'income.pdf' },
    },
  ];
  const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
    method: 'POST',
    headers: auth,
    body: sendInputForm(inputs, [{ field: 'custom-document', name: 'income.pdf', bytes }]),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { result: boolean; error?: { code: string } }[])[0];
}

describe('PDF bombs against the running service', () => {
  it('two bombs at once: peak growth under 256 MB, back within 64 MB of idle 10 s later', async () => {
    const pid = child.pid!;
    const bomb = zlibBomb(BOMB_MB);
    const crBomb = await bombPdf(bomb, ['FlateDecode'], true);
    const hexBomb = await bombPdf(
      Buffer.from(`${bomb.toString('hex')}>`),
      ['ASCIIHexDecode', 'FlateDecode'],
      false,
    );
    // A real file first: pdf.js warm, so the idle figure is the service's ordinary one.
    const real = readFileSync(samplePath('custom-document-3-pages.pdf'));
    expect((await sendIncomeProof(real)).result).toBe(true);
    await sleep(1000);
    const idle = rssMb(pid);

    let peak = idle;
    let childPeak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
      for (const reader of childrenOf(pid)) childPeak = Math.max(childPeak, rssMb(reader));
    }, 20);
    const answers = await Promise.all([sendIncomeProof(crBomb), sendIncomeProof(hexBomb)]);
    clearInterval(sampler);
    expect(answers.map((answer) => answer.error?.code)).toEqual([
      'documentPhoto.unexpectedData',
      'documentPhoto.unexpectedData',
    ]);
    await sleep(10_000);
    const after = rssMb(pid);
    console.log(
      `service RSS: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, 10 s after ${after.toFixed(0)} MB; ` +
        `PDF reader process peak ${childPeak.toFixed(0)} MB`,
    );
    expect(peak - idle).toBeLessThan(256);
    expect(after - idle).toBeLessThan(64);
    // The reading processes, too, stay within their own bound.
    expect(childPeak).toBeLessThan(600);
    // And a real file is still read afterwards.
    expect((await sendIncomeProof(real)).result).toBe(true);
  }, 180_000);
});
