/**
 * How long the primary waits before replacing a worker that stopped (decision 0048): at once for a
 * worker that had been serving a while (a crash now and then), then longer and longer while workers die
 * young — a crash loop (a bad deployment, a database refusing every connection) must not fork hundreds
 * of processes a minute; the waits double from `firstDelayMs` up to `maxDelayMs`, and a worker that lives
 * `stableAfterMs` ends the series.
 */
export class RestartBackoff {
  private youngDeaths = 0;

  constructor(
    private readonly options: { firstDelayMs: number; maxDelayMs: number; stableAfterMs: number } = {
      firstDelayMs: 500,
      maxDelayMs: 30_000,
      stableAfterMs: 30_000,
    },
  ) {}

  /** A worker that lived `livedMs` stopped: the wait, in milliseconds, before its replacement is started. */
  delayAfter(livedMs: number): number {
    if (livedMs >= this.options.stableAfterMs) {
      this.youngDeaths = 0;
      return 0;
    }
    this.youngDeaths += 1;
    return Math.min(this.options.firstDelayMs * 2 ** (this.youngDeaths - 1), this.options.maxDelayMs);
  }
}
