const MAX_DELAY = 2 ** 31 - 1;

/** Named one-shot timers for deadlines kept in the database; `at` may lie beyond setTimeout's range. */
export class Timers {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  set(key: string, at: number, run: () => void) {
    if (this.closed) return;
    this.clear(key);
    const delay = Math.max(0, at - Date.now());
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        if (Date.now() < at) this.set(key, at, run);
        else run();
      },
      Math.min(delay, MAX_DELAY),
    );
    this.timers.set(key, timer);
  }

  clear(key: string) {
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
  }

  close() {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
