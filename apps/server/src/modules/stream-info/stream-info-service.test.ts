/**
 * The stream-info rules without a database or a platform: the service takes a fake connection source (facets
 * in memory) and a fake audit log.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import type { AuditEntryInput, AuditRecorder } from '../audit';
import type { ConnectionActions, ConnectionActionsSource } from '../../platforms/connection-manager';
import { PlatformError } from '../../platforms/platform-error';
import type { Category, ChannelActions, StreamInfo, StreamInfoFacet } from '../../platforms/port';
import { pickCategory, StreamInfoService } from './stream-info-service';

class FakeStreamInfo implements StreamInfoFacet {
  info: StreamInfo = { title: 'Old title', category: null, isLive: true, viewerCount: 3, liveStreamId: null };
  failWith: Error | null = null;
  constructor(readonly categories: Category[]) {}
  async get() {
    return this.info;
  }
  async update(input: { title?: string; categoryId?: string }) {
    if (this.failWith) throw this.failWith;
    const category = this.categories.find((c) => c.id === input.categoryId);
    this.info = {
      ...this.info,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(category ? { category: { id: category.id, name: category.name } } : {}),
    };
  }
  async searchCategories(query: string) {
    return this.categories.filter((c) => c.name.toLowerCase().includes(query.toLowerCase()));
  }
}

class FakeConnections implements ConnectionActionsSource {
  readonly rows: { id: string; channelId: string; provider: ChannelProviderId; actions: ChannelActions }[] = [];
  add(id: string, provider: ChannelProviderId, actions: ChannelActions, channelId = 'c1') {
    this.rows.push({ id, channelId, provider, actions });
  }
  async actions(id: string): Promise<ConnectionActions> {
    const row = this.rows.find((r) => r.id === id);
    if (!row) throw new Error('unknown connection');
    return { actions: row.actions, channelId: row.channelId, provider: row.provider, providerChannelId: `${row.provider}-1` };
  }
  async connectionsOf(channelId: string) {
    return this.rows.filter((r) => r.channelId === channelId).map((r) => ({ id: r.id, provider: r.provider }));
  }
}

class FakeAudit implements AuditRecorder {
  entries: AuditEntryInput[] = [];
  async record(entry: AuditEntryInput) {
    this.entries.push(entry);
  }
}

function setup() {
  const connections = new FakeConnections();
  const audit = new FakeAudit();
  const twitch = new FakeStreamInfo([
    { id: '509658', name: 'Just Chatting', imageUrl: null },
    { id: '1', name: 'Just Dance', imageUrl: null },
  ]);
  const kick = new FakeStreamInfo([{ id: '15', name: 'Just Chatting', imageUrl: null }]);
  const youtube = new FakeStreamInfo([{ id: '20', name: 'Gaming', imageUrl: null }]);
  connections.add('tw', 'twitch', { streamInfo: twitch });
  connections.add('ki', 'kick', { streamInfo: kick });
  connections.add('yt', 'youtube', { streamInfo: youtube });
  connections.add('tt', 'tiktok', {});
  connections.add('other', 'twitch', { streamInfo: twitch }, 'c2');
  return { service: new StreamInfoService({ connections, audit }), audit, twitch, kick, youtube };
}

describe('StreamInfoService', () => {
  it('updates one connection, checks the platform title limit in code points, and audits', async () => {
    const { service, audit } = setup();
    const dto = await service.update({ channelId: 'c1', channelProviderId: 'tw' }, { title: 'New title' }, { userId: 'u1' });
    expect(dto.title).toBe('New title');
    expect(audit.entries).toEqual([
      {
        channelId: 'c1',
        actorUserId: 'u1',
        action: 'stream.updated',
        data: { provider: 'twitch', channel_provider_id: 'tw', title: 'New title', category_id: null, category_name: null },
      },
    ]);
    // 140 emoji are 140 characters for Twitch, though 280 UTF-16 units.
    await service.update({ channelId: 'c1', channelProviderId: 'tw' }, { title: '🎮'.repeat(140) }, { userId: 'u1' });
    await expect(
      service.update({ channelId: 'c1', channelProviderId: 'yt' }, { title: 'x'.repeat(101) }, { userId: 'u1' }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'YouTube titles are limited to 100 characters (this one has 101).',
    });
  });

  it('refuses platforms without a title or category, and connections of another channel', async () => {
    const { service } = setup();
    await expect(service.get({ channelId: 'c1', channelProviderId: 'tt' })).rejects.toMatchObject({ status: 422, type: 'unsupported' });
    await expect(service.update({ channelId: 'c1', channelProviderId: 'tt' }, { title: 'x' }, { userId: null })).rejects.toMatchObject({
      status: 422,
    });
    await expect(service.get({ channelId: 'c1', channelProviderId: 'other' })).rejects.toMatchObject({ status: 404 });
  });

  it('updates every platform at once with a result per platform: one may fail while the others succeed', async () => {
    const { service, audit, kick } = setup();
    kick.failWith = new PlatformError('refused', 'kick', 'Kick refused to update the stream title and category: nope.');
    const results = await service.updateAll('c1', { title: 'Big game night', categoryName: 'just chatting' }, { userId: null });
    expect(results).toEqual([
      {
        channelProviderId: 'tw',
        provider: 'twitch',
        ok: true,
        info: expect.objectContaining({ title: 'Big game night', category: { id: '509658', name: 'Just Chatting' } }) as unknown,
      },
      {
        channelProviderId: 'ki',
        provider: 'kick',
        ok: false,
        error: { status: 422, type: 'provider_refused', message: 'Kick refused to update the stream title and category: nope.' },
      },
      {
        channelProviderId: 'yt',
        provider: 'youtube',
        ok: false,
        error: { status: 400, type: 'bad_request', message: 'YouTube has no category matching "just chatting".' },
      },
    ]);
    expect(audit.entries.map((e) => e.data?.channel_provider_id)).toEqual(['tw']);
  });

  it('sends only the part a platform can take and skips platforms without stream info', async () => {
    const { service } = setup();
    const results = await service.updateAll('c1', { title: 'Only a title' }, { userId: 'u1' });
    expect(results.map((r) => [r.provider, r.ok])).toEqual([
      ['twitch', true],
      ['kick', true],
      ['youtube', true],
    ]);
    await expect(service.updateAll('c1', {}, { userId: 'u1' })).rejects.toMatchObject({ status: 400 });
  });

  it('uses a per-connection category id instead of the name match, and changes only the chosen connections', async () => {
    const { service, youtube, kick } = setup();
    const results = await service.updateAll(
      'c1',
      { categoryName: 'Just Chatting', categoryIds: { yt: '20' }, only: ['tw', 'yt'] },
      { userId: 'u1' },
    );
    expect(results.map((r) => [r.provider, r.ok, r.ok ? r.info.category?.name : r.error.message])).toEqual([
      ['twitch', true, 'Just Chatting'],
      ['youtube', true, 'Gaming'],
    ]);
    expect(youtube.info.category).toEqual({ id: '20', name: 'Gaming' });
    expect(kick.info.category).toBeNull();
    // A category given only for one connection changes only that one.
    const one = await service.updateAll('c1', { categoryIds: { ki: '15' } }, { userId: 'u1' });
    expect(one.map((r) => r.provider)).toEqual(['kick']);
  });

  it('searches categories on every platform that has them, each with its own results or error', async () => {
    const { service, kick } = setup();
    kick.searchCategories = () => Promise.reject(new PlatformError('temporary', 'kick', 'Kick could not be reached.'));
    const results = await service.searchCategoriesAll('c1', 'just');
    expect(results.map((r) => [r.provider, r.ok ? r.categories.map((c) => c.name) : r.error.message])).toEqual([
      ['twitch', ['Just Chatting', 'Just Dance']],
      ['kick', 'Kick could not be reached.'],
      ['youtube', []],
    ]);
  });

  it('picks the exact category name first, else the first result', () => {
    const found = [
      { id: '1', name: 'Just Dance', imageUrl: null },
      { id: '2', name: 'Just Chatting', imageUrl: null },
    ];
    expect(pickCategory(found, 'JUST CHATTING')?.id).toBe('2');
    expect(pickCategory(found, 'just')?.id).toBe('1');
    expect(pickCategory([], 'x')).toBeNull();
  });
});
