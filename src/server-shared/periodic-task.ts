/**
 * A background job of a server (a retention sweep, a reconciliation round): run at start and then
 * every `everyMs` (0 or less: never on its own), one round at a time. A round still under way when
 * the next is due, or asked for meanwhile, is joined rather than started twice, and `stop` waits
 * for it, so that a server closes its database after the last round is done.
 */
export class PeriodicTask<T> {
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<T> | undefined;

  constructor(
    private readonly run: () => Promise<T>,
    private readonly everyMs: number,
    /** A round that failed: the next one is the retry, so it is only reported. */
    private readonly onError: (err: unknown) => void,
  ) {}

  /** One round now (joined if one is under way). */
  runOnce(): Promise<T> {
    this.round ??= this.run().finally(() => (this.round = undefined));
    return this.round;
  }

  start() {
    if (this.everyMs <= 0) return;
    const tick = () => void this.runOnce().catch(this.onError);
    tick();
    // A background job never keeps a process alive that is otherwise done.
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    await this.round?.catch(() => undefined);
  }
}
