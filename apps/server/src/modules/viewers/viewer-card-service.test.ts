import { describe, expect, it } from 'vitest';
import type { ModerationEvent } from '@greenroom/contracts/api/events';
import { withoutEchoedClears } from './viewer-card-service';

const event = (kind: ModerationEvent['kind'], at: string, source: ModerationEvent['source'] = 'platform'): ModerationEvent => ({
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
      event('clear', '2025-01-01T12:00:01.200Z'),
      event('timeout', '2025-01-01T12:00:00.900Z', 'greenroom'),
      event('clear', '2025-01-01T10:00:00.000Z'),
    ];
    expect(withoutEchoedClears(history).map((e) => e.kind)).toEqual(['timeout', 'clear']);
  });
});
