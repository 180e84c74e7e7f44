import { describe, expect, it } from 'vitest';
import { DECODE_BUDGET_BYTES, DecodeBudget, decodeWeight } from './decode-budget';

const MB = 1024 * 1024;

describe('the decode budget', () => {
  it('fits decodes together only while their weights add up to the budget', () => {
    const budget = new DecodeBudget();
    // 88 MB each (a 64 MB progressive JPEG's coefficients and the shrunk pixels): one at a time in 160 MB.
    budget.take(decodeWeight(88 * MB));
    expect(budget.fits(decodeWeight(88 * MB))).toBe(false);
    // A baseline photo (24 MB) fits beside it.
    expect(budget.fits(decodeWeight(1))).toBe(true);
    budget.give(decodeWeight(88 * MB));
    expect(budget.inUse).toBe(0);
    for (let n = 0; n < 6; n++) budget.take(decodeWeight(24 * MB));
    expect(budget.fits(decodeWeight(24 * MB))).toBe(false);
  });

  it('weighs a decode estimated over the whole budget as the whole budget: it runs alone', () => {
    const budget = new DecodeBudget();
    expect(decodeWeight(10 * DECODE_BUDGET_BYTES)).toBe(DECODE_BUDGET_BYTES);
    expect(budget.fits(decodeWeight(10 * DECODE_BUDGET_BYTES))).toBe(true);
    budget.take(decodeWeight(1));
    expect(budget.fits(decodeWeight(10 * DECODE_BUDGET_BYTES))).toBe(false);
  });
});
