/**
 * Runs the functions given under one key one after another, in the order given, whatever the
 * previous one's outcome: a lock within one process (both stores' `exclusive` start from it).
 */
export class KeyQueue {
  private readonly chains = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    this.chains.set(key, next);
    try {
      return await next;
    } finally {
      // The last one out leaves no entry behind: keys are many and mostly used once.
      if (this.chains.get(key) === next) this.chains.delete(key);
    }
  }
}
