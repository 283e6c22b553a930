/** Normalised chat events for chat tests and benchmarks. */
import type { Activity, ChatMessage } from '@greenroom/contracts/api/events';
import type { PlatformChatMessage, PlatformEvent } from '../src/platforms/port';
import type { HubSocket } from '../src/modules/chat';

export function chatMessage(i: number, over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: `twitch:m${i}`,
    channel_id: 'c1',
    channel_provider_id: 'cp1',
    provider: 'twitch',
    provider_message_id: `m${i}`,
    author: {
      provider_user_id: 'u1',
      login: 'viewer',
      display_name: 'Viewer',
      color: null,
      avatar_url: null,
      badges: [],
      roles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: false },
      is_self: false,
    },
    text: `message ${i} `.padEnd(200, 'x'),
    emotes: [],
    reply: null,
    mentions: [],
    highlight: null,
    sent_at: new Date(1_700_000_000_000 + i).toISOString(),
    deleted: false,
    filtered: null,
    ...over,
  };
}

/** A normalised activity (a follow by default; `over` sets the rest). */
export function activity(i: number, over: Partial<Activity> = {}): Activity {
  return {
    id: `twitch:a${i}`,
    channel_id: 'c1',
    channel_provider_id: 'cp1',
    provider: 'twitch',
    provider_event_id: `a${i}`,
    type: 'follow',
    viewer: { provider_user_id: 'u1', login: 'viewer', display_name: 'Viewer' },
    tier: null,
    months: null,
    count: null,
    amount: null,
    message: null,
    occurred_at: new Date().toISOString(),
    ...over,
  };
}

/** A platform event as an adapter emits it (ingest fills ids, channel and platform). */
export function platformChat(
  providerMessageId: string,
  text: string,
  author: { id: string; name: string },
  over: Partial<PlatformChatMessage> = {},
): Extract<PlatformEvent, { kind: 'chat' }> {
  return {
    kind: 'chat' as const,
    message: {
      provider_message_id: providerMessageId,
      author: {
        provider_user_id: author.id,
        login: author.name.toLowerCase(),
        display_name: author.name,
        color: '#ff0000',
        avatar_url: null,
        badges: [{ set_id: 'subscriber', id: '1', label: 'Subscriber' }],
        roles: { broadcaster: false, moderator: false, vip: false, subscriber: true, member: false, verified: false },
      },
      text,
      emotes: [],
      reply: null,
      mentions: [],
      highlight: null,
      sent_at: new Date().toISOString(),
      deleted: false,
      ...over,
    },
  };
}

/** A socket whose peer never reads: every send stays buffered until `drain()`. */
export class FakeHubSocket implements HubSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  closed: { code?: number; reason?: string } | null = null;
  constructor(private readonly reads = true) {}
  send(data: string): void {
    this.sent.push(data);
    if (!this.reads) this.bufferedAmount += Buffer.byteLength(data);
  }
  close(code?: number, reason?: string): void {
    this.readyState = 3;
    this.closed = { code, reason };
  }
}
