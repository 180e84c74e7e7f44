import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditCheckAcceptedSchema, creditCheckResultEventSchema } from '@/shared/contract/credit-check';
import { startReceiver, startService, waitFor, type RunningService } from '../../testing/harness';

let svc: RunningService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver('credit-secret');
  svc = await startService({ WEBHOOK_SECRET: 'credit-secret' });
});
afterAll(async () => {
  await svc.close();
  await receiver.close();
});

const post = (country: 'ar' | 'br', body: unknown) =>
  fetch(`${svc.url}/creditchecks/v1/${country}/credit-bureau`, {
    method: 'POST',
    headers: { ...svc.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function resultOf(id: string) {
  const hook = await waitFor(() => Promise.resolve(receiver.received.find((r) => r.json.id === id)));
  expect(hook.validSignature).toBe(true);
  return creditCheckResultEventSchema.parse(hook.json);
}

describe('credit checks', () => {
  it('Argentina by CUIT and by DNI with full name: 202, then a signed synthetic result', async () => {
    const byCuit = await post('ar', { cuit: '20-12345678-6', callbackUrl: receiver.url });
    expect(byCuit.status).toBe(202);
    const accepted = creditCheckAcceptedSchema.parse(await byCuit.json());
    const result = await resultOf(accepted.id);
    expect(result).toMatchObject({ country: 'ar', request: { cuit: '20-12345678-6' } });
    expect(result.result).toMatchObject({ synthetic: true, identifier: '20123456786' });
    expect(typeof result.result.score).toBe('number');
    expect(Array.isArray(result.result.debts)).toBe(true);

    const byDni = await post('ar', { dni: '12.345.678', fullName: 'Ana Pérez', callbackUrl: receiver.url });
    expect(byDni.status).toBe(202);
    const second = await resultOf(creditCheckAcceptedSchema.parse(await byDni.json()).id);
    expect(second.result).toMatchObject({ name: 'Ana Pérez', synthetic: true });

    // Deterministic per identifier.
    const again = await post('ar', { cuit: '20123456786', callbackUrl: receiver.url });
    const third = await resultOf(creditCheckAcceptedSchema.parse(await again.json()).id);
    expect(third.result.score).toBe(result.result.score);
    expect(third.result.debts).toEqual(result.result.debts);
  });

  it('Brazil by CPF', async () => {
    const response = await post('br', { cpf: '529.982.247-25', callbackUrl: receiver.url });
    expect(response.status).toBe(202);
    const result = await resultOf(((await response.json()) as { id: string }).id);
    expect(result).toMatchObject({
      eventName: 'credit_check_completed',
      country: 'br',
      result: { synthetic: true },
    });
  });

  it('422 for wrong check digits, missing or non-http callbackUrl, both or neither Argentine form', async () => {
    const cases: ['ar' | 'br', unknown][] = [
      ['ar', { cuit: '20-12345678-5', callbackUrl: receiver.url }],
      ['ar', { cuit: '20-12345678-6' }],
      ['ar', { cuit: '20-12345678-6', callbackUrl: 'ftp://example.test/x' }],
      ['ar', { cuit: '20-12345678-6', dni: '12345678', fullName: 'Ana Pérez', callbackUrl: receiver.url }],
      ['ar', { callbackUrl: receiver.url }],
      ['ar', { dni: '12345678', callbackUrl: receiver.url }],
      ['br', { cpf: '529.982.247-26', callbackUrl: receiver.url }],
      ['br', { cpf: '111.111.111-11', callbackUrl: receiver.url }],
      ['br', { callbackUrl: receiver.url }],
      ['br', null],
    ];
    for (const [country, body] of cases) {
      const response = await post(country, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(await response.json()).toMatchObject({
        code: 422,
        type: 'ValidationError',
        name: expect.any(String),
      });
    }
    for (const [type, body] of [
      ['application/json', '{"cpf": '],
      ['text/plain', 'cpf=52998224725'],
    ]) {
      const response = await fetch(`${svc.url}/creditchecks/v1/br/credit-bureau`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': type },
        body,
      });
      expect(response.status, body).toBe(422);
    }
  });
});
