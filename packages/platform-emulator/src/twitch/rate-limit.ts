/** Helix's token bucket (800 points per minute per client+user), reported in Ratelimit-* headers. */
export interface BucketState {
  limit: number;
  remaining: number;
  /** Unix seconds when the bucket is full again. */
  reset: number;
}

export class HelixRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(public limit = 800) {}

  /** Takes one point; `allowed` false means 429. */
  take(key: string, now = Date.now()): BucketState & { allowed: boolean } {
    const perMs = this.limit / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.limit, at: now };
    bucket.tokens = Math.min(this.limit, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    const reset = Math.ceil((now + (this.limit - bucket.tokens) / perMs) / 1000);
    return { allowed, limit: this.limit, remaining: Math.floor(bucket.tokens), reset };
  }

  clear(): void {
    this.buckets.clear();
  }
}
