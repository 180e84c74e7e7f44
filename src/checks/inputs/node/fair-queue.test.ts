import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue';

describe('FairQueue (PDF readings in turns by verification)', () => {
  it('takes one reading of each verification in turn, each verification in its own order', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.push('A', item);
    queue.push('B', 'b1');
    queue.push('C', 'c1');
    queue.push('C', 'c2');
    expect(queue.size).toBe(7);
    const taken: string[] = [];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      taken.push(item);
      // A verification whose readings were all taken comes back last in the turn.
      if (item === 'b1') queue.push('B', 'b2');
    }
    expect(taken).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'a4']);
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});
