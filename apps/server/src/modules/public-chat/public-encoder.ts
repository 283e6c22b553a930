/**
 * What the public popout sees of the live stream: `chat.message` with public fields only, and
 * `chat.removed` with the ids to hide when a message is deleted or its author banned / timed out /
 * the chat cleared. The encoder of a channel remembers its last `recent` messages (id, platform,
 * author) so a ban maps to ids without a database query; nothing else of moderation is exposed.
 */
import { toPublicMessage, type Encoded, type EncoderFactory } from '../chat';

interface Recent {
  id: string;
  provider: string;
  channelProviderId: string;
  authorId: string;
}

/** Ring buffer of recent messages of one channel. */
class RecentMessages {
  private readonly items: (Recent | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.items = new Array<Recent | undefined>(capacity);
  }

  add(item: Recent): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
  }

  ids(match: (r: Recent) => boolean): string[] {
    const out: string[] = [];
    for (const r of this.items) if (r && match(r)) out.push(r.id);
    return out;
  }
}

function removed(ids: string[], provider: string): Encoded | null {
  return ids.length ? { payload: JSON.stringify({ type: 'chat.removed', data: { ids } }), provider } : null;
}

export function publicEncoder(recent = 1000): EncoderFactory {
  return () => {
    const ring = new RecentMessages(recent);
    return (event) => {
      switch (event.type) {
        case 'chat.message': {
          const m = event.data;
          // Removed or held back by a filter: never shown to the public.
          if (m.deleted || m.filtered) return null;
          ring.add({ id: m.id, provider: m.provider, channelProviderId: m.channel_provider_id, authorId: m.author.provider_user_id });
          return { payload: JSON.stringify({ type: 'chat.message', seq: event.seq, data: toPublicMessage(m) }), provider: m.provider };
        }
        case 'chat.moderation': {
          const e = event.data;
          switch (e.kind) {
            case 'delete':
              return e.provider_message_id ? removed([`${e.provider}:${e.provider_message_id}`], e.provider) : null;
            case 'ban':
            case 'timeout': {
              const target = e.target?.provider_user_id;
              return target
                ? removed(
                    ring.ids((r) => r.provider === e.provider && r.authorId === target),
                    e.provider,
                  )
                : null;
            }
            case 'clear':
              return removed(
                ring.ids((r) => r.channelProviderId === e.channel_provider_id),
                e.provider,
              );
            case 'unban':
              return null;
          }
          return null;
        }
        default:
          return null;
      }
    };
  };
}
