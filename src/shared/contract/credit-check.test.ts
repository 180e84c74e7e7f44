import { describe, expect, it } from 'vitest';
import { arCreditCheckSchema, brCreditCheckSchema, isValidCpf, isValidCuit } from './credit-check';

// Check digits computed by hand from the published algorithms.
describe('check digits', () => {
  it('accepts valid CUITs with or without formatting', () => {
    expect(isValidCuit('20-12345678-6')).toBe(true);
    expect(isValidCuit('20123456786')).toBe(true);
    expect(isValidCuit('30-71234567-1')).toBe(true);
    expect(isValidCuit('30-71234567-2')).toBe(false);
    expect(isValidCuit('20-12345678-5')).toBe(false);
    expect(isValidCuit('2012345678')).toBe(false);
  });
  it('accepts valid CPFs and refuses repeated digits', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('529.982.247-26')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
  });
});

describe('credit-check bodies', () => {
  const callbackUrl = 'http://127.0.0.1:8080/webhooks/credit-check';
  it('takes either cuit or dni with fullName for Argentina', () => {
    expect(arCreditCheckSchema.safeParse({ cuit: '20-12345678-6', callbackUrl }).success).toBe(true);
    expect(
      arCreditCheckSchema.safeParse({ dni: '12345678', fullName: 'Ana Pérez', callbackUrl }).success,
    ).toBe(true);
    expect(
      arCreditCheckSchema.safeParse({
        cuit: '20-12345678-6',
        dni: '12345678',
        fullName: 'Ana Pérez',
        callbackUrl,
      }).success,
    ).toBe(false);
    expect(arCreditCheckSchema.safeParse({ dni: '12345678', callbackUrl }).success).toBe(false);
    expect(arCreditCheckSchema.safeParse({ callbackUrl }).success).toBe(false);
  });
  it('needs an http(s) callbackUrl', () => {
    expect(brCreditCheckSchema.safeParse({ cpf: '529.982.247-25', callbackUrl }).success).toBe(true);
    expect(
      brCreditCheckSchema.safeParse({ cpf: '529.982.247-25', callbackUrl: 'ftp://x.test/' }).success,
    ).toBe(false);
    expect(brCreditCheckSchema.safeParse({ cpf: '529.982.247-25' }).success).toBe(false);
  });
});
