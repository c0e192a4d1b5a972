/**
 * The generators' randomness: mulberry32, a small 32-bit generator (Tommy Ettinger's), so that one seed gives
 * the same rows on every machine and every run. Not for secrets: the portal's own ids and tokens use `crypto`.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/**
 * Ids in the portal's shape (`prefix_…`), unique within one generator run and sorting in the order they are
 * made: rows are then appended at the end of each primary-key index instead of scattered through it. `tag`
 * tells one run from another (its kind and seed, then a dot: never in the portal's own ids, which are base64url).
 */
export class IdMaker {
  private counter = 0;

  constructor(private readonly tag: string) {}

  next(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.tag}${this.counter.toString(36).padStart(8, "0")}`;
  }
}
