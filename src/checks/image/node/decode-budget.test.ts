import { describe, expect, it } from 'vitest';
import { DECODE_BUDGET_BYTES, decodeBudgetInUse, withDecodeBudget } from './decode-budget';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the decode budget', () => {
  it('lets decodes run together only while their estimates fit, in order of arrival', async () => {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const decode = (n: number) => async () => {
      running++;
      most = Math.max(most, running);
      expect(decodeBudgetInUse()).toBeLessThanOrEqual(DECODE_BUDGET_BYTES);
      await sleep(20);
      order.push(n);
      running--;
      return n;
    };
    // 88 MB each (a 64 MB progressive JPEG's coefficients and the shrunk pixels): one at a time in 160 MB.
    const heavy = await Promise.all([1, 2, 3, 4].map((n) => withDecodeBudget(88 * MB, decode(n))));
    expect(heavy).toEqual([1, 2, 3, 4]);
    expect(most).toBe(1);
    expect(order).toEqual([1, 2, 3, 4]);
    most = 0;
    await Promise.all(Array.from({ length: 12 }, (_, n) => withDecodeBudget(24 * MB, decode(n))));
    expect(most).toBe(6);
    expect(decodeBudgetInUse()).toBe(0);
  });

  it('runs a decode estimated over the whole budget alone, and frees its share when it throws', async () => {
    await expect(
      withDecodeBudget(10 * DECODE_BUDGET_BYTES, () => Promise.reject(new Error('bad bytes'))),
    ).rejects.toThrow('bad bytes');
    expect(decodeBudgetInUse()).toBe(0);
  });
});
