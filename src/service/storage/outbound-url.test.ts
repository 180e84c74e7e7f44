import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundPolicy, redactUrl } from './outbound-url';
import { startReceiver, startService, type RunningService } from '../testing/harness';

describe('OutboundPolicy', () => {
  const policy = new OutboundPolicy([]);
  afterAll(() => policy.close());

  it('refuses loopback, private, link-local and unique-local addresses in every spelling', async () => {
    for (const url of [
      'http://127.0.0.1:8081/oauth',
      'http://127.1:8081/oauth',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://017700000001/',
      'http://[::1]:8081/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://0.0.0.0/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://172.20.0.1/',
      'http://192.168.1.10/',
      'http://100.64.0.1/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      'http://localhost:8081/',
      'http://user:pass@127.0.0.1/',
    ]) {
      const verdict = await policy.check(url);
      expect(verdict.ok, url).toBe(false);
    }
    expect(await policy.check('ftp://8.8.8.8/')).toMatchObject({ ok: false });
    expect(await policy.check('https://93.184.215.14/hook')).toEqual({ ok: true });
  });

  it('lets through what OUTBOUND_ALLOWED names: an origin, or an address range', async () => {
    const allowing = new OutboundPolicy(['http://127.0.0.1:8080', '10.0.0.0/8']);
    try {
      expect(await allowing.check('http://127.0.0.1:8080/webhooks/credit-check')).toEqual({ ok: true });
      // Same host, another port: the service's own /oauth stays out of reach.
      expect((await allowing.check('http://127.0.0.1:8081/oauth')).ok).toBe(false);
      expect(await allowing.check('http://10.9.8.7/hook')).toEqual({ ok: true });
      expect((await allowing.check('http://192.168.0.1/hook')).ok).toBe(false);
    } finally {
      await allowing.close();
    }
  });

  it('checks the address again when the delivery connects (a name resolving to loopback)', async () => {
    const receiver = await startReceiver('x');
    try {
      const port = new URL(receiver.url).port;
      // The check before the delivery would have said no; the connection says no as well.
      await expect(
        request(`http://localhost:${port}/hooks`, {
          method: 'POST',
          body: '{}',
          dispatcher: policy.dispatcher,
        }),
      ).rejects.toThrow(/refused/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('keeps credentials out of logged URLs', () => {
    expect(redactUrl('https://user:secret@hooks.example/path?token=abc')).toBe(
      'https://***@hooks.example/path',
    );
  });
});

describe('credit-check callbackUrl under the default policy', () => {
  let svc: RunningService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver('s');
    // The embedded defaults: only the webhook URL's origin may be private.
    svc = await startService({
      OUTBOUND_ALLOWED: '',
      SERVICE_WEBHOOK_URL: 'http://127.0.0.1:9/webhooks/verification',
    });
  });
  afterAll(async () => {
    await svc.close();
    await receiver.close();
  });

  const post = (callbackUrl: string) =>
    fetch(`${svc.url}/creditchecks/v1/br/credit-bureau`, {
      method: 'POST',
      headers: { ...svc.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: '529.982.247-25', callbackUrl }),
    });

  it('422 for a loopback callback, the service itself included; 202 for the webhook origin', async () => {
    const port = new URL(svc.url).port;
    for (const url of [
      receiver.url,
      `http://127.1:${port}/oauth`,
      `http://0x7f000001:${port}/oauth`,
      `http://[::1]:${port}/oauth`,
      `http://user:pass@127.0.0.1:${port}/oauth`,
    ]) {
      const response = await post(url);
      expect(response.status, url).toBe(422);
      expect(((await response.json()) as { message: string }).message).toMatch(/callbackUrl/);
    }
    expect((await post('http://127.0.0.1:9/webhooks/credit-check')).status).toBe(202);
    expect(receiver.received).toHaveLength(0);
  });
});
