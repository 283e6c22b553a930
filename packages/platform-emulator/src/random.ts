/** Seeded pseudo-random numbers (mulberry32): the same seed gives the same world and the same crowd. */
export class SeededRandom {
  private state: number;

  constructor(private readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Back to the first number of the sequence. */
  reset(): void {
    this.state = this.seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** `length` characters from `alphabet`. */
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  digits(length: number): string {
    return String(this.int(1, 9)) + this.string(length - 1, '0123456789');
  }

  /** An RFC 4122 v4-shaped id drawn from the sequence (deterministic, unlike crypto.randomUUID). */
  uuid(): string {
    const h = (n: number): string =>
      Math.floor(this.next() * 16 ** n)
        .toString(16)
        .padStart(n, '0');
    const variant = (8 + Math.floor(this.next() * 4)).toString(16);
    return `${h(8)}-${h(4)}-4${h(3)}-${variant}${h(3)}-${h(6)}${h(6)}`;
  }
}
