/**
 * Work waiting for a shared engine (a PDF reader, an image worker, FFmpeg), taken in turns by
 * verification: each verification's items keep their order, and the verifications take one each in
 * turn (round-robin), so that one verification's many files do not make the others wait for all
 * of them.
 */
export class FairQueue<T> {
  readonly #byOwner = new Map<string, T[]>();

  get size() {
    let size = 0;
    for (const items of this.#byOwner.values()) size += items.length;
    return size;
  }

  push(owner: string, item: T) {
    const items = this.#byOwner.get(owner);
    if (items) items.push(item);
    else this.#byOwner.set(owner, [item]);
  }

  /** `owner` has just had its turn (one running outside the queue): its waiting ones go behind the others. */
  behind(owner: string) {
    const items = this.#byOwner.get(owner);
    if (!items) return;
    this.#byOwner.delete(owner);
    this.#byOwner.set(owner, items);
  }

  /** The next reading: the first owner's first; that owner then goes behind the others. */
  shift(): T | undefined {
    for (const [owner, items] of this.#byOwner) {
      const item = items.shift();
      this.#byOwner.delete(owner);
      // A Map keeps insertion order: set again, the owner goes to the end of the turn.
      if (items.length > 0) this.#byOwner.set(owner, items);
      return item;
    }
    return undefined;
  }
}
