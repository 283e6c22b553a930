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
  /** Marks per viewer, oldest first: a timeout followed by a ban of the same viewer makes two echoes. */
  private readonly pending = new Map<string, number[]>();
  constructor(private readonly ttlMs = 30_000) {}

  private key(broadcasterId: string, userId: string): string {
    return `${broadcasterId}:${userId}`;
  }

  private live(k: string, now: number): number[] {
    const marks = (this.pending.get(k) ?? []).filter((at) => now - at <= this.ttlMs);
    if (marks.length === 0) this.pending.delete(k);
    else this.pending.set(k, marks);
    return marks;
  }

  mark(broadcasterId: string, userId: string): void {
    const now = Date.now();
    for (const k of this.pending.keys()) this.live(k, now);
    const k = this.key(broadcasterId, userId);
    this.pending.set(k, [...(this.pending.get(k) ?? []), now]);
  }

  /** The platform call failed: no echo will come for the newest mark. */
  forget(broadcasterId: string, userId: string): void {
    const k = this.key(broadcasterId, userId);
    const marks = this.pending.get(k);
    if (!marks) return;
    marks.pop();
    if (marks.length === 0) this.pending.delete(k);
  }

  /** True (once per mark) when this ban is the echo of one Greenroom made. */
  takeEcho(broadcasterId: string, userId: string): boolean {
    const k = this.key(broadcasterId, userId);
    const marks = this.live(k, Date.now());
    if (marks.length === 0) return false;
    marks.shift();
    if (marks.length === 0) this.pending.delete(k);
    return true;
  }
}
