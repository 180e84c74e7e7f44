import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildSendInputForm, classifyFailure } from './send-input';
import type { PlannedInput } from './wizard-model';

const input = (id: string, field: 'document' | 'selfie', uploadName: string): PlannedInput => ({
  id,
  stepKey: id,
  stepIndex: 0,
  part: 'front',
  descriptor: { inputType: 'selfie-photo', data: { filename: uploadName } },
  file: { stored: { key: id, name: 'x.jpg', size: 3, type: 'image/jpeg' }, field, uploadName },
});

const readBody = (request: IncomingMessage) =>
  new Promise<{ type: string; body: Buffer }>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () =>
      resolve({ type: String(request.headers['content-type']), body: Buffer.concat(chunks) }),
    );
  });

describe('buildSendInputForm', () => {
  it('sends inputs as JSON first and each file under its field with its upload name', async () => {
    const server = createServer((request, response) => {
      void readBody(request).then(({ type, body }) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ type, body: body.toString('latin1') }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const form = buildSendInputForm([
      {
        input: input('doc-0-front', 'document', 'doc-0-front.jpg'),
        blob: new Blob([new Uint8Array([0xff, 0xd8, 0xff])]),
      },
      { input: input('selfie', 'selfie', 'selfie.jpg'), blob: new Blob(['abc']) },
    ]);
    const answer = (await (
      await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: form })
    ).json()) as {
      type: string;
      body: string;
    };
    server.close();
    expect(answer.type).toMatch(/^multipart\/form-data; boundary=/);
    const parts = answer.body.split(/--[^\r\n]+\r\n/).filter(Boolean);
    expect(parts[0]).toContain('name="inputs"');
    expect(parts[0]).toContain('"filename":"doc-0-front.jpg"');
    expect(parts[1]).toContain('name="document"; filename="doc-0-front.jpg"');
    expect(parts[2]).toContain('name="selfie"; filename="selfie.jpg"');
  });
});

describe('classifyFailure', () => {
  const error = (
    code: string,
    type: 'IntegrationError' | 'ValidationError' | 'SystemError' | 'AuthError',
  ) => ({
    code,
    type,
    message: '',
  });
  it('gives each request-level failure its own screen', () => {
    expect(classifyFailure(0, error('network.unreachable', 'SystemError'))).toBe('network');
    expect(classifyFailure(400, error('400', 'IntegrationError'))).toBe('integration');
    expect(classifyFailure(413, error('413', 'ValidationError'))).toBe('tooBig');
    expect(classifyFailure(415, error('415', 'ValidationError'))).toBe('format');
    expect(classifyFailure(401, error('401', 'AuthError'))).toBe('session');
    expect(classifyFailure(403, error('403', 'AuthError'))).toBe('session');
    expect(classifyFailure(409, error('input.locked', 'ValidationError'))).toBe('locked');
    expect(classifyFailure(502, error('502', 'SystemError'))).toBe('unavailable');
    expect(classifyFailure(503, error('503', 'SystemError'))).toBe('unavailable');
    expect(classifyFailure(503, error('upstream.storageFull', 'SystemError'))).toBe('storageFull');
  });
});
