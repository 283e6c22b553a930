import { describe, expect, it } from 'vitest';
import { LocalEventBus } from '../lib/event-bus';
import { IngestPipeline, type IngestSource } from './ingest';
import { platformChat } from '../../test/chat-fixtures';

const chat = (id: string) => platformChat(id, 'hi', { id: 'u1', name: 'Viewer' });

const source = (channelId: string): IngestSource => ({
  channelId,
  channelProviderId: `cp-${channelId}`,
  provider: 'twitch',
  providerChannelId: 'b1',
});

describe('IngestPipeline dedupe', () => {
  it('drops a repeated delivery in one channel but publishes the same platform message to every channel backed by the account', () => {
    const bus = new LocalEventBus<{ type: string }>();
    const got: string[] = [];
    for (const channel of ['a', 'b']) bus.subscribe(`channel:${channel}`, () => void got.push(channel));
    const ingest = new IngestPipeline({ bus, log: { warn: () => undefined, error: () => undefined } });
    expect(ingest.ingest(source('a'), chat('m1'))).not.toBeNull();
    expect(ingest.ingest(source('b'), chat('m1'))).not.toBeNull();
    expect(ingest.ingest(source('a'), chat('m1'))).toBeNull();
    expect(got).toEqual(['a', 'b']);
    expect(ingest.stats).toMatchObject({ published: 2, duplicates: 1 });
  });
});
