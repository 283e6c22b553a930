/**
 * The viewer card's rules, without a database: the service reads through a ViewerRepository, and this test gives
 * it an in-memory fake (the pattern for domain logic behind a repository; see docs/ARCHITECTURE.md).
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModerationEvent } from '@greenroom/contracts/api/events';
import { chatMessage } from '../../../test/chat-fixtures';
import type { AppError } from '../../lib/errors';
import { ViewerCardService, withoutEchoedClears } from './viewer-card-service';
import type { ViewerKey, ViewerRepository, ViewerSnapshot } from './viewer-repository';

class FakeViewerRepository implements ViewerRepository {
  snapshots = new Map<string, ViewerSnapshot>();
  messages: ChatMessage[] = [];
  moderation: ModerationEvent[] = [];
  connections = new Map<string, string>();

  private static id(k: ViewerKey): string {
    return `${k.channelId}/${k.provider}/${k.providerUserId}`;
  }

  async snapshot(k: ViewerKey): Promise<ViewerSnapshot | null> {
    return this.snapshots.get(FakeViewerRepository.id(k)) ?? null;
  }

  async recentMessages(k: ViewerKey, limit: number): Promise<ChatMessage[]> {
    return this.messages
      .filter((m) => m.channel_id === k.channelId && m.provider === k.provider && m.author.provider_user_id === k.providerUserId)
      .slice(0, limit);
  }

  async moderationHistory(k: ViewerKey, limit: number): Promise<ModerationEvent[]> {
    return this.moderation
      .filter((e) => e.channel_id === k.channelId && e.provider === k.provider && e.target?.provider_user_id === k.providerUserId)
      .slice(0, limit);
  }

  async channelProviderId(channelId: string, provider: string): Promise<string | null> {
    return this.connections.get(`${channelId}/${provider}`) ?? null;
  }
}

const now = Date.parse('2026-01-01T12:00:00Z');

function moderation(kind: ModerationEvent['kind'], minutesAgo: number, over: Partial<ModerationEvent> = {}): ModerationEvent {
  return {
    id: `e${minutesAgo}`,
    channel_id: 'c1',
    channel_provider_id: 'cp1',
    provider: 'twitch',
    kind,
    target: { provider_user_id: 'u1', display_name: 'Banned Person' },
    provider_message_id: null,
    duration_seconds: null,
    reason: null,
    moderator: null,
    source: 'greenroom',
    occurred_at: new Date(now - minutesAgo * 60_000).toISOString(),
    ...over,
  };
}

describe('ViewerCardService (fake repository)', () => {
  it('answers 404 for a viewer never seen in the channel', async () => {
    const service = new ViewerCardService(new FakeViewerRepository(), () => now);
    await expect(service.card('c1', 'twitch', 'nobody')).rejects.toMatchObject({ status: 404 } satisfies Partial<AppError>);
  });

  it('takes the profile from the snapshot, else from the latest message, else from the moderation history', async () => {
    const repo = new FakeViewerRepository();
    const service = new ViewerCardService(repo, () => now);
    repo.moderation = [moderation('ban', 5)];
    expect((await service.card('c1', 'twitch', 'u1')).display_name).toBe('Banned Person');

    repo.messages = [chatMessage(2), chatMessage(1)];
    const fromMessage = await service.card('c1', 'twitch', 'u1');
    expect(fromMessage).toMatchObject({ login: 'viewer', display_name: 'Viewer', message_count: 0, first_seen_at: null });
    expect(fromMessage.recent_messages.map((m) => m.id)).toEqual(['twitch:m2', 'twitch:m1']);

    repo.snapshots.set('c1/twitch/u1', {
      ...chatMessage(1).author,
      displayName: 'Renamed',
      avatarUrl: null,
      firstSeenAt: new Date(now - 86_400_000),
      lastSeenAt: new Date(now),
      messageCount: 12,
    });
    repo.connections.set('c1/twitch', 'cp1');
    expect(await service.card('c1', 'twitch', 'u1')).toMatchObject({
      display_name: 'Renamed',
      message_count: 12,
      channel_provider_id: 'cp1',
    });
  });

  it('derives the ban state from the newest decisive moderation event', async () => {
    const repo = new FakeViewerRepository();
    const service = new ViewerCardService(repo, () => now);
    repo.moderation = [moderation('timeout', 1, { duration_seconds: 600 }), moderation('ban', 10)];
    const timedOut = await service.card('c1', 'twitch', 'u1');
    expect(timedOut).toMatchObject({ banned: false, timed_out_until: new Date(now - 60_000 + 600_000).toISOString() });

    repo.moderation = [
      moderation('delete', 0, { target: { provider_user_id: 'u1', display_name: 'x' } }),
      moderation('unban', 2),
      moderation('ban', 10),
    ];
    expect(await service.card('c1', 'twitch', 'u1')).toMatchObject({ banned: false, timed_out_until: null });

    repo.moderation = [moderation('ban', 1), moderation('timeout', 3, { duration_seconds: 60 })];
    expect(await service.card('c1', 'twitch', 'u1')).toMatchObject({ banned: true, timed_out_until: null });
  });
});

const echoEvent = (kind: ModerationEvent['kind'], at: string, source: ModerationEvent['source'] = 'platform'): ModerationEvent => ({
  id: `${kind}-${at}`,
  channel_id: 'c',
  channel_provider_id: 'cp',
  provider: 'twitch',
  kind,
  target: { provider_user_id: 'v', display_name: 'Viewer' },
  provider_message_id: null,
  duration_seconds: kind === 'timeout' ? 600 : null,
  reason: null,
  moderator: null,
  source,
  occurred_at: at,
});

describe('withoutEchoedClears', () => {
  it("drops Twitch's 'messages cleared' that comes with our own timeout, keeps a clear on its own", () => {
    const history = [
      echoEvent('clear', '2025-01-01T12:00:01.200Z'),
      echoEvent('timeout', '2025-01-01T12:00:00.900Z', 'greenroom'),
      echoEvent('clear', '2025-01-01T10:00:00.000Z'),
    ];
    expect(withoutEchoedClears(history).map((e) => e.kind)).toEqual(['timeout', 'clear']);
  });
});
