import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceErrorSchema, serviceHealthSchema } from '@/shared/contract/service-api';
import {
  createVerification,
  faceImage,
  sendInput,
  startService,
  type RunningService,
} from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';

// A real full disk: DATA_DIR on a small tmpfs (needs root, as on the development VM and in CI).
const dataDir = tempDataDir();
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dataDir], { stdio: 'ignore' });
  mounted = true;
} catch {
  // Not root: the test is skipped below.
}

let svc: RunningService;
beforeAll(async () => {
  if (mounted) svc = await startService({ UPLOAD_WAIT_SECONDS: '600' }, dataDir);
});
afterAll(async () => {
  await svc?.close();
  // Lazily: the service's worker threads may hold a file of it a moment longer.
  if (mounted) execFileSync('umount', ['--lazy', dataDir]);
});

const passport = [
  {
    inputType: 'document-photo',
    group: 0,
    // The file is stored before it is matched to a descriptor; one that matches none is not
    // checked (the check of a passport photo is not what this test is about).
    data: { type: 'passport', country: 'AR', page: 'front', filename: 'p.jpg' },
  },
];
const health = async () => {
  const res = await fetch(`${svc.url}/health`);
  return { status: res.status, body: serviceHealthSchema.parse(await res.json()) };
};

describe.skipIf(!mounted)('storage full', () => {
  it('answers 507 SystemError with no internal detail, health 503 until a write works again', async () => {
    expect(await health()).toEqual({ status: 200, body: { ok: true, storage: 'ok' } });
    const v = await createVerification(svc, 'global-passport');
    const photo = await faceImage(800, 640);
    // Leave less room than the photo needs.
    const { bavail, bsize } = fs.statfsSync(dataDir);
    const filler = path.join(dataDir, 'filler');
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - photo.length / 2)));

    const full = await sendInput(svc, v.identity, passport, [
      { field: 'document', name: 'unnamed.jpg', bytes: photo },
    ]);
    expect(full.status).toBe(507);
    const body = serviceErrorSchema.parse(full.body);
    expect(body).toMatchObject({ code: 507, type: 'SystemError' });
    expect(body.message).not.toMatch(/ENOSPC|no space|\/tmp|\//i);
    expect(fs.readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
    expect(await health()).toEqual({ status: 503, body: { ok: false, storage: 'failing' } });
    expect((await health()).status).toBe(503);

    fs.rmSync(filler);
    expect(await health()).toEqual({ status: 200, body: { ok: true, storage: 'ok' } });
    const again = await sendInput(svc, v.identity, passport, [
      { field: 'document', name: 'unnamed.jpg', bytes: photo },
    ]);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject([{ result: false, error: { code: 'media.notFound' } }]);
  });
});
