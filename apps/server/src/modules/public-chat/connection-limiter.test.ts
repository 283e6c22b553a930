import { describe, expect, it } from 'vitest';
import { ConnectionLimiter } from './connection-limiter';

describe('ConnectionLimiter', () => {
  it('caps concurrent connections per IP and frees slots on release (once)', () => {
    const limiter = new ConnectionLimiter({ perIp: 2 });
    const a = limiter.acquire('1.1.1.1');
    const b = limiter.acquire('1.1.1.1');
    expect(a && b).toBeTruthy();
    expect(limiter.acquire('1.1.1.1')).toBeNull();
    expect(limiter.acquire('2.2.2.2')).not.toBeNull();
    a!();
    a!();
    expect(limiter.acquire('1.1.1.1')).not.toBeNull();
    expect(limiter.acquire('1.1.1.1')).toBeNull();
  });

  it('forgets an IP with no connection left (bounded memory)', () => {
    const limiter = new ConnectionLimiter({ perIp: 5 });
    const releases = Array.from({ length: 100 }, (_, i) => limiter.acquire(`10.0.0.${i}`)!);
    expect(limiter.size).toBe(100);
    for (const r of releases) r();
    expect(limiter.size).toBe(0);
  });
});
