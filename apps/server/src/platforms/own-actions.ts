/**
 * Bans and timeouts Greenroom itself is making. Platforms echo them as their own moderation events (Twitch
 * `channel.ban`, Kick `moderation.banned`), which must not be published a second time: the moderation route already
 * published them with source `greenroom`. An adapter marks a ban before calling the platform (the echo can arrive
 * before the call returns) and forgets it when the call fails; an unclaimed mark expires.
 *
 * In-process: with several instances the echo may reach another instance, which publishes it as a platform event
 * (a duplicate line in the log, never a lost one).
 */
export class OwnBans {
  private readonly pending = new Map<string, number>();
  constructor(private readonly ttlMs = 30_000) {}

  private key(broadcasterId: string, userId: string): string {
    return `${broadcasterId}:${userId}`;
  }

  mark(broadcasterId: string, userId: string): void {
    const now = Date.now();
    for (const [k, at] of this.pending) if (now - at > this.ttlMs) this.pending.delete(k);
    this.pending.set(this.key(broadcasterId, userId), now);
  }

  forget(broadcasterId: string, userId: string): void {
    this.pending.delete(this.key(broadcasterId, userId));
  }

  /** True (once) when this ban is the echo of one Greenroom made. */
  takeEcho(broadcasterId: string, userId: string): boolean {
    const k = this.key(broadcasterId, userId);
    const at = this.pending.get(k);
    if (at === undefined) return false;
    this.pending.delete(k);
    return Date.now() - at <= this.ttlMs;
  }
}
