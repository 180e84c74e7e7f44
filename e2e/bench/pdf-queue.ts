// Issue 21 item 4: a valid bank statement of one verification sent while four heavy PDFs (4 pages of
// 60 MB Flate text each, ~1 MB on disk) of two others are being read, against the service as
// `npm run service` runs it. Prints the statement's answer time, the heavy ones', and the peak
// resident memory of the service and of its PDF reading processes (sum, from /proc).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../fixtures/free-port';
import { heavyTextPdf } from '../fixtures/heavy-pdf';
import { samplePath } from '../fixtures/samples';
import { sendInputForm } from '../fixtures/send-input-form';
import { benchAuth, startBenchService } from './lib/bench-service';
import { sleep, stopNode, waitForHttp } from './lib/node-process';
import { rssKb } from './lib/proc-stats';

const childrenOf = (pid: number): number[] => {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
};

const dir = mkdtempSync(path.join(tmpdir(), 'idv-pdf-queue-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const service = startBenchService(port, dir);
try {
  await waitForHttp(`${url}/health`, service);
  const auth = await benchAuth(url);
  const statement = (filename: string) => ({
    inputType: 'financial-information-bank-statement-parsing-request',
    data: { type: 'bank-document', country: 'BR', institutionId: 'br-banco-exemplo', filename },
  });
  const income = {
    inputType: 'custom-document-photo',
    group: 1,
    data: { type: 'custom-proof-of-income', page: 'multi', filename: 'income.pdf' },
  };
  const send = async (inputs: unknown[], files: { field: string; name: string; bytes: Uint8Array }[]) => {
    const created = await fetch(`${url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'br-bank' }),
    });
    const { identity } = (await created.json()) as { identity: string };
    const started = performance.now();
    const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
      method: 'POST',
      headers: auth,
      body: sendInputForm(inputs, files),
    });
    const answer = (await response.json()) as { result: boolean; error?: { code: string } }[];
    return {
      ms: performance.now() - started,
      codes: answer.map((a) => (a.result ? 'accepted' : a.error?.code)),
    };
  };
  const valid = readFileSync(samplePath('bank-statement.pdf'));
  const validFiles = [{ field: 'bank-document', name: 'statement.pdf', bytes: valid }];
  // pdf.js warm in a reader, as after the first statement of the day.
  await send([statement('statement.pdf')], validFiles);
  await sleep(1000);
  const alone = await send([statement('statement.pdf')], validFiles);
  await sleep(1000);
  const heavy = await heavyTextPdf();
  const pids = () => [service.pid!, ...childrenOf(service.pid!)];
  const sum = () => pids().reduce((total, pid) => total + rssKb(pid), 0) / 1024;
  const idle = sum();
  let peak = idle;
  let readerPeak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, sum());
    for (const pid of childrenOf(service.pid!)) readerPeak = Math.max(readerPeak, rssKb(pid) / 1024);
  }, 20);
  const heavyFiles = [
    { field: 'custom-document', name: 'income.pdf', bytes: heavy },
    { field: 'bank-document', name: 'statement.pdf', bytes: heavy },
  ];
  const attacks = [0, 1].map(() => send([income, statement('statement.pdf')], heavyFiles));
  // The heavy files uploaded and with the readers.
  await sleep(500);
  const behind = await send([statement('statement.pdf')], validFiles);
  const heavyAnswers = await Promise.all(attacks);
  clearInterval(sampler);
  await sleep(10_000);
  const after = sum();
  // A second idle reading process is ended after 20 s idle (pdf-reader.ts).
  await sleep(20_000);
  const later = sum();
  console.log(`heavy PDF: ${(heavy.length / 1024 / 1024).toFixed(2)} MB, 4 pages of 60 MB Flate text`);
  console.log(`valid statement alone (warm): ${alone.ms.toFixed(0)} ms, ${alone.codes.join(', ')}`);
  console.log(
    `valid statement sent 0.5 s after 2 verifications × 2 heavy PDFs: ${behind.ms.toFixed(0)} ms, ${behind.codes.join(', ')}`,
  );
  for (const [i, answer] of heavyAnswers.entries())
    console.log(`heavy verification A${i + 1}: ${answer.ms.toFixed(0)} ms, ${answer.codes.join(', ')}`);
  console.log(
    `RSS, service + PDF readers: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, 10 s after ${after.toFixed(0)} MB, 30 s after ${later.toFixed(0)} MB; one reader's peak ${readerPeak.toFixed(0)} MB`,
  );
} finally {
  await stopNode(service);
  rmSync(dir, { recursive: true, force: true });
}
