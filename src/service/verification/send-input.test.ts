import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputResultSchema } from '@/shared/contract/send-input';
import {
  createVerification,
  getVerification,
  faceImage,
  noiseImage,
  sendInput,
  startService,
  type RunningService,
} from '../testing/harness';

let svc: RunningService;
let photo: Buffer;
beforeAll(async () => {
  svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  photo = await faceImage(800, 640);
});
afterAll(() => svc.close());

type Result = { result: boolean; data: unknown; error?: { type: string; code: string; message: string } };
const codes = (body: unknown) => (body as Result[]).map((r) => (r.result ? null : r.error!.code));

const brFront = (filename: string) => ({
  inputType: 'document-photo',
  group: 0,
  data: { type: 'national-id', country: 'BR', page: 'front', filename },
});
const brBack = (filename: string) => ({
  ...brFront(filename),
  data: { ...brFront(filename).data, page: 'back' },
});
const selfie = (filename: string) => ({
  inputType: 'selfie-photo',
  data: { type: 'selfie-photo', filename },
});
const incomeProof = (filename: string, page = 'multi') => ({
  inputType: 'custom-document-photo',
  group: 1,
  data: { type: 'custom-proof-of-income', page, filename },
});
const addressProof = (filename: string, page = 'front') => ({
  inputType: 'custom-document-photo',
  group: 1,
  data: { type: 'custom-proof-of-address', page, filename },
});
const statement = (filename: string, password?: string) => ({
  inputType: 'financial-information-bank-statement-parsing-request',
  data: {
    type: 'bank-document',
    country: 'BR',
    institutionId: 'br-banco-exemplo',
    filename,
    ...(password ? { password } : {}),
  },
});

async function pdf(pages: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawText(`Page ${i + 1}`, { x: 50, y: 780 });
  return Buffer.from(await doc.save());
}

/** A valid PNG header claiming width × height pixels, followed by a tiny IDAT (a decompression bomb's shape). */
function pngClaiming(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed) >>> 0);
    return Buffer.concat([length, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from('789c030000000001', 'hex')),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('send-input answers per descriptor', () => {
  it('media.notFound and bankDocument.badFileName when no file of the field has the name', async () => {
    const v = await createVerification(svc, 'br-bank');
    const { status, body } = await sendInput(
      svc,
      v.identity,
      [brFront('front.jpg')],
      [{ field: 'selfie', name: 'front.jpg', bytes: photo }], // right name, wrong field
    );
    expect(status).toBe(201);
    expect(codes(body)).toEqual(['media.notFound']);
    for (const r of body as unknown[]) inputResultSchema.parse(r);

    const w = await createVerification(svc, 'br-bank');
    const bank = await sendInput(
      svc,
      w.identity,
      [statement('statement.pdf')],
      [{ field: 'bank-document', name: 'other.pdf', bytes: await pdf(1) }],
    );
    expect(codes(bank.body)).toEqual(['bankDocument.badFileName']);
  });

  // Issue 35 item 4: the spec's "the second is rejected until the first is successfully
  // re-uploaded" is read as the pages of one document. Before, every later input of the request
  // got documentPhoto.FirstInputNotProcessed, so a person with three wrong captures learnt of them
  // one send at a time; now only a back waits for its failed front.
  it('documentPhoto.FirstInputNotProcessed for a back after a failed front only; other inputs are checked', async () => {
    const v = await createVerification(svc, 'br-bank');
    const first = await sendInput(
      svc,
      v.identity,
      [brFront('front.jpg'), brBack('back.jpg'), selfie('selfie.jpg')],
      [
        { field: 'document', name: 'front.jpg', bytes: await noiseImage(400, 300) }, // too small
        { field: 'document', name: 'back.jpg', bytes: await noiseImage(800, 640) },
        { field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) },
      ],
    );
    expect(codes(first.body)).toEqual([
      'documentPhoto.smallImageSize',
      'documentPhoto.FirstInputNotProcessed',
      null,
    ]);
    // (ext) The input list names the refusal, with the extensions on (the default).
    const refused = (await getVerification(svc, v.id)) as unknown as {
      inputs: { id: string; status: number; errorCode?: string }[];
    };
    expect(refused.inputs.find((i) => i.id === 'document-photo')).toMatchObject({
      status: 100,
      errorCode: 'documentPhoto.smallImageSize',
    });
    expect(refused.inputs.find((i) => i.id === 'selfie-photo')?.status).toBe(200);
    const laterBack = await sendInput(
      svc,
      v.identity,
      [brBack('back.jpg')],
      [{ field: 'document', name: 'back.jpg', bytes: await noiseImage(800, 640) }],
    );
    expect(codes(laterBack.body)).toEqual(['documentPhoto.FirstInputNotProcessed']);
    const retake = await sendInput(
      svc,
      v.identity,
      [brFront('front.jpg'), brBack('back.jpg')],
      [
        { field: 'document', name: 'front.jpg', bytes: photo },
        { field: 'document', name: 'back.jpg', bytes: await noiseImage(800, 640) },
      ],
    );
    expect(codes(retake.body)).toEqual([null, null]);
  });

  it('three wrong captures in one send: each input reports its own code', async () => {
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x37)]);
    const v = await createVerification(svc, 'br-bank');
    const { body } = await sendInput(
      svc,
      v.identity,
      [brFront('front.jpg'), selfie('selfie.jpg'), incomeProof('income.pdf'), statement('s.pdf')],
      [
        { field: 'document', name: 'front.jpg', bytes: await noiseImage(400, 300) },
        { field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) },
        { field: 'custom-document', name: 'income.pdf', bytes: corrupt },
        { field: 'bank-document', name: 's.pdf', bytes: corrupt },
      ],
    );
    expect(codes(body)).toEqual([
      'documentPhoto.smallImageSize',
      null,
      'documentPhoto.unexpectedData',
      'bankDocument.statementNotSupported',
    ]);
  });

  it('documentPhoto.similarImages for the same picture as front and back', async () => {
    const v = await createVerification(svc, 'br-bank');
    const { body } = await sendInput(
      svc,
      v.identity,
      [brFront('a.jpg'), brBack('b.jpg')],
      [
        { field: 'document', name: 'a.jpg', bytes: photo },
        { field: 'document', name: 'b.jpg', bytes: photo },
      ],
    );
    expect(codes(body)).toEqual([null, 'documentPhoto.similarImages']);
    // The back alone later, against the stored front: still the same picture.
    const again = await sendInput(
      svc,
      v.identity,
      [brBack('b.jpg')],
      [{ field: 'document', name: 'b.jpg', bytes: photo }],
    );
    expect(codes(again.body)).toEqual(['documentPhoto.similarImages']);
  });

  it('CustomDocumentPhoto.multiPageInputError only where the flow takes one page', async () => {
    const two = await pdf(2);
    const mx = await createVerification(svc, 'mx-ine-full');
    const refused = await sendInput(
      svc,
      mx.identity,
      [addressProof('address.pdf')],
      [{ field: 'custom-document', name: 'address.pdf', bytes: two }],
    );
    expect(codes(refused.body)).toEqual(['CustomDocumentPhoto.multiPageInputError']);
    const br = await createVerification(svc, 'br-bank');
    const accepted = await sendInput(
      svc,
      br.identity,
      [incomeProof('income.pdf')],
      [{ field: 'custom-document', name: 'income.pdf', bytes: two }],
    );
    expect(codes(accepted.body)).toEqual([null]);
  });

  it('custom-fields values are checked against the flow (400 with the reason)', async () => {
    const v = await createVerification(svc, 'mx-ine-full');
    const field = (name: string, type: string, value: string, mapping?: object) => ({
      name,
      type: 'atomic',
      atomicFieldParams: { type, value, ...(mapping ? { mapping } : {}) },
    });
    const fields = (curp: string) => ({
      inputType: 'custom-fields',
      data: {
        country: 'MX',
        fields: [
          field('curp', 'text', curp, { country: 'MX', key: 'curp' }),
          field('rfc', 'text', 'PEAA900517AB1', { country: 'MX', key: 'rfc' }),
          field('occupation', 'select', 'employee'),
          field('startDate', 'date', ''),
          field('declaration', 'checkbox', 'true'),
        ],
      },
    });
    const bad = await sendInput(svc, v.identity, [fields('not-a-curp')]);
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toMatch(/curp/);
    const good = await sendInput(svc, v.identity, [fields('PEAA900517MDFRRN09')]);
    expect(good.status).toBe(201);
    expect(codes(good.body)).toEqual([null]);
  });

  it('a retake replaces the earlier file of the same input', async () => {
    const v = await createVerification(svc, 'br-bank');
    const send = async () =>
      sendInput(
        svc,
        v.identity,
        [selfie('s.jpg')],
        [{ field: 'selfie', name: 's.jpg', bytes: await faceImage(700, 700) }],
      );
    await send();
    const mediaDir = path.join(svc.dataDir, 'media');
    const before = new Set(fs.readdirSync(mediaDir));
    await send();
    const after = new Set(fs.readdirSync(mediaDir));
    expect(after.size).toBe(before.size);
    expect([...after].filter((m) => !before.has(m))).toHaveLength(1);
  });
});

describe('hostile input never crashes the service or leaves partial state', () => {
  const tmpFiles = () => fs.readdirSync(path.join(svc.dataDir, 'tmp'));

  it('refuses a PNG header claiming 100000×100000 pixels as a per-input error', async () => {
    const v = await createVerification(svc, 'br-bank');
    const { status, body } = await sendInput(
      svc,
      v.identity,
      [brFront('bomb.png')],
      [{ field: 'document', name: 'bomb.png', bytes: pngClaiming(100_000, 100_000) }],
    );
    expect(status).toBe(201);
    expect(['documentPhoto.smallImageSize', 'documentPhoto.unexpectedData']).toContain(codes(body)[0]);
  });

  it('judges files by their bytes, not their names; corrupt PDFs fail their input only', async () => {
    const v = await createVerification(svc, 'br-bank');
    const png = await faceImage(800, 640, 'png');
    const renamed = await sendInput(
      svc,
      v.identity,
      [brFront('photo.pdf')],
      [{ field: 'document', name: 'photo.pdf', bytes: png }],
    );
    expect(codes(renamed.body)).toEqual([null]);
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x37)]);
    const w = await createVerification(svc, 'br-bank');
    const custom = await sendInput(
      svc,
      w.identity,
      [incomeProof('income.pdf')],
      [{ field: 'custom-document', name: 'income.pdf', bytes: corrupt }],
    );
    expect(codes(custom.body)).toEqual(['documentPhoto.unexpectedData']);
    const x = await createVerification(svc, 'br-bank');
    const bank = await sendInput(
      svc,
      x.identity,
      [statement('s.pdf')],
      [{ field: 'bank-document', name: 's.pdf', bytes: corrupt }],
    );
    expect(codes(bank.body)).toEqual(['bankDocument.statementNotSupported']);
  });

  it('never uses client file names for paths', async () => {
    const v = await createVerification(svc, 'br-bank');
    const { status, body } = await sendInput(
      svc,
      v.identity,
      [selfie('evil.jpg')],
      [{ field: 'selfie', name: '../../evil.jpg', bytes: await faceImage(700, 700) }],
    );
    expect(status).toBe(201);
    expect(['media.notFound', null]).toContain(codes(body)[0]);
    expect(fs.existsSync(path.join(svc.dataDir, 'evil.jpg'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(svc.dataDir), 'evil.jpg'))).toBe(false);
    expect(fs.readdirSync(path.join(svc.dataDir, 'media')).every((m) => /^[0-9a-f]{32}$/.test(m))).toBe(true);
  });

  it('400 for malformed multipart bodies', async () => {
    const v = await createVerification(svc, 'br-bank');
    const post = (contentType: string, body: string) =>
      fetch(`${svc.url}/v2/identities/${v.identity}/send-input`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': contentType },
        body,
      });
    const unterminated =
      '--xyz\r\nContent-Disposition: form-data; name="document"; filename="a.jpg"\r\n\r\n\xff\xd8\xff\xe0abc';
    for (const [type, body] of [
      ['multipart/form-data', 'no boundary at all'],
      ['multipart/form-data; boundary=xyz', 'garbage without any boundary'],
      ['multipart/form-data; boundary=xyz', unterminated],
    ]) {
      const response = await post(type, body);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ type: 'IntegrationError' });
    }
    expect(tmpFiles()).toEqual([]);
  });

  it('a connection cut in the middle of an upload leaves nothing behind', async () => {
    const v = await createVerification(svc, 'br-bank');
    const { port } = new URL(svc.url);
    const boundary = 'cut-here';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n${JSON.stringify([
      brFront('f.jpg'),
    ])}\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="f.jpg"\r\n\r\n`;
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v2/identities/${v.identity}/send-input HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Authorization: ${svc.auth.authorization}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
            `Content-Length: ${10 * 1024 * 1024}\r\n\r\n${head}`,
        );
        socket.write(photo.subarray(0, 20_000), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    // The service notices the cut, removes the partial file, and goes on serving.
    for (let i = 0; i < 100 && tmpFiles().length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(tmpFiles()).toEqual([]);
    const data = (await getVerification(svc, v.id)) as unknown as {
      inputs: { id: string; status: number }[];
    };
    expect(data.inputs.filter((i) => i.id !== 'connection-data').every((i) => i.status === 0)).toBe(true);
  });
});
