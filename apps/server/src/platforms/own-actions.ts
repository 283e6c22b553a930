/** A mark made or forgotten on one instance, to be applied on the others (several instances: through Redis). */
export type OwnBanChange = { op: 'mark' | 'forget'; broadcasterId: string; userId: string };

/**
 * Bans and timeouts Greenroom itself is making. Platforms echo them as their own moderation events (Twitch
 * `channel.ban`, Kick `moderation.banned`), which must not be published a second time: the moderation route already
 * published them with source `greenroom`. An adapter marks a ban before calling the platform (the echo can arrive
 * before the call returns) and forgets it when the call fails; an unclaimed mark expires.
 *
 * Several instances: the ban may be made on an instance that does not hold the channel, while the echo arrives at
 * the one that does. `mirror` is told of every mark and forget made here (the cluster sends them to the others
 * through Redis, ahead of the platform call) and `apply` takes theirs.
 */
export class OwnBans {
  mirror: ((change: OwnBanChange) => void) | null = null;

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
    this.markHere(broadcasterId, userId);
    this.mirror?.({ op: 'mark', broadcasterId, userId });
  }

  /** A change made on another instance. */
  apply(change: OwnBanChange): void {
    if (change.op === 'mark') this.markHere(change.broadcasterId, change.userId);
    else this.forgetHere(change.broadcasterId, change.userId);
  }

  private markHere(broadcasterId: string, userId: string): void {
    const now = Date.now();
    for (const k of this.pending.keys()) this.live(k, now);
    const k = this.key(broadcasterId, userId);
    this.pending.set(k, [...(this.pending.get(k) ?? []), now]);
  }

  /** The platform call failed: no echo will come for the newest mark. */
  forget(broadcasterId: string, userId: string): void {
    this.forgetHere(broadcasterId, userId);
    this.mirror?.({ op: 'forget', broadcasterId, userId });
  }

  private forgetHere(broadcasterId: string, userId: string): void {
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
