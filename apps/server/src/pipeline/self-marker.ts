/**
 * Which incoming chat messages Greenroom wrote itself (`author.is_self`), so no stage answers them:
 * messages from the connection's bot account (the channel's own bot or the system bot), messages
 * whose platform id Greenroom got back when sending, and — for the echo that can arrive before the
 * send call returns — a message from the sending account with the very text being sent.
 */
import { BoundedSet } from '../lib/bounded-set';

interface Sending {
  channelProviderId: string;
  authorId: string;
  text: string;
}

/** A send begun or finished on one instance, to be applied on the others (several instances: through Redis). */
export type SelfSendChange =
  | { op: 'sending'; channelProviderId: string; authorId: string; text: string }
  | { op: 'sent'; channelProviderId: string; providerMessageId: string };

/**
 * Several instances: a message may be sent from an instance that does not hold the channel, while its echo arrives
 * at the one that does. `mirror` is told of every send begun and finished here (the cluster sends them to the others
 * through Redis, ahead of the platform call) and `apply` takes theirs.
 */
export class SelfMarker {
  private readonly sentIds = new BoundedSet(10_000);
  /**
   * Sends in flight (and for a few seconds after, while their echo may arrive), by connection and sending account:
   * every incoming message is checked, and a busy bot keeps a hundred or more here (it was one list, walked for
   * each message: ~10 µs a message at 8 replies a second).
   */
  private readonly sending = new Map<string, Set<Sending>>();
  mirror: ((change: SelfSendChange) => void) | null = null;

  private add(entry: Sending): void {
    const key = `${entry.channelProviderId}\u0000${entry.authorId}`;
    let set = this.sending.get(key);
    if (!set) this.sending.set(key, (set = new Set()));
    set.add(entry);
  }

  private remove(entry: Sending): void {
    const key = `${entry.channelProviderId}\u0000${entry.authorId}`;
    const set = this.sending.get(key);
    if (!set) return;
    set.delete(entry);
    if (set.size === 0) this.sending.delete(key);
  }

  /** A send begun or finished on another instance. */
  apply(change: SelfSendChange): void {
    if (change.op === 'sent') {
      this.sentIds.add(`${change.channelProviderId}\u0000${change.providerMessageId}`);
      return;
    }
    const entry: Sending = { channelProviderId: change.channelProviderId, authorId: change.authorId, text: change.text.trim() };
    this.add(entry);
    setTimeout(() => this.remove(entry), 15_000).unref();
  }

  /** Call before sending as `authorId`; call the returned function with the platform's message id (or null) once the send returned or failed. */
  beginSend(channelProviderId: string, authorId: string, text: string): (providerMessageId: string | null) => void {
    const entry: Sending = { channelProviderId, authorId, text: text.trim() };
    this.add(entry);
    this.mirror?.({ op: 'sending', channelProviderId, authorId, text });
    return (providerMessageId) => {
      if (providerMessageId) {
        this.sentIds.add(`${channelProviderId}\u0000${providerMessageId}`);
        this.mirror?.({ op: 'sent', channelProviderId, providerMessageId });
      }
      // The echo may still be on its way: keep matching the text for a few seconds.
      setTimeout(() => this.remove(entry), 10_000).unref();
    };
  }

  isSelf(channelProviderId: string, botUserId: string | null, authorId: string, providerMessageId: string, text: string): boolean {
    if (botUserId !== null && authorId === botUserId) return true;
    if (this.sentIds.has(`${channelProviderId}\u0000${providerMessageId}`)) return true;
    if (this.sending.size === 0) return false;
    const set = this.sending.get(`${channelProviderId}\u0000${authorId}`);
    if (!set) return false;
    const trimmed = text.trim();
    for (const s of set) {
      if (s.text === trimmed) {
        // One echo per send.
        this.remove(s);
        return true;
      }
    }
    return false;
  }
}
