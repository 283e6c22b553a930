/** Caps concurrent public websocket connections per client IP (an OBS dock needs one or two). */
export class ConnectionLimiter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly options: { perIp: number }) {}

  /** Takes a slot for `ip`; returns its release function, or null when the IP is at its cap. */
  acquire(ip: string): (() => void) | null {
    const n = this.counts.get(ip) ?? 0;
    if (n >= this.options.perIp) return null;
    this.counts.set(ip, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(ip) ?? 1) - 1;
      if (left <= 0) this.counts.delete(ip);
      else this.counts.set(ip, left);
    };
  }

  get size(): number {
    return this.counts.size;
  }
}
