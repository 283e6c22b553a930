/**
 * A cap on concurrent public websocket connections per client address, taken before the upgrade. Alone, a
 * `ConnectionLimiter`; with several instances the count is kept in Redis (`cluster/redis-state.ts`), so the cap
 * holds across them.
 */
export interface ConnectionCap {
  /** Takes a slot for `ip`; its release function (idempotent), or null when the address is at its cap. */
  acquire(ip: string): Promise<(() => void) | null>;
}

/** Caps concurrent public websocket connections per client IP in this process (an OBS dock needs one or two). */
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

  /** This limiter as a cap (one instance). */
  asCap(): ConnectionCap {
    return { acquire: async (ip) => this.acquire(ip) };
  }
}

/** Shares a cap across instances (the cluster's Redis counter), given the per-address limit. */
export type SharedCaps = (name: string, perIp: number) => ConnectionCap;

/** The cap of one kind of public socket: shared across instances when `shared` is given, else this process's. */
export function connectionCap(name: string, perIp: number, shared?: SharedCaps): ConnectionCap {
  return shared ? shared(name, perIp) : new ConnectionLimiter({ perIp }).asCap();
}
