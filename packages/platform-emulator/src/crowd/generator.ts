/**
 * Builds realistic simulated chat and events for a channel from a seeded random source. Pools are
 * built once per channel (not per message); generation is a handful of picks and a string concat.
 */
import { bttvEmoteNames, sevenTvEmoteNames, twitchEmotes } from '../emote-names';
import type { SeededRandom } from '../random';
import type { Account, Channel, ChannelEvent, ChatMessage, World } from '../world';
import { capsMessages, cheerMessages, commands, links, plainMessages, replyOpeners } from './phrases';

type Kind = 'plain' | 'twitchEmote' | 'thirdPartyEmote' | 'link' | 'caps' | 'emoteSpam' | 'repeat' | 'command' | 'reply' | 'mention';

const kindWeights: [Kind, number][] = [
  ['plain', 36],
  ['twitchEmote', 10],
  ['thirdPartyEmote', 12],
  ['link', 2],
  ['caps', 4],
  ['emoteSpam', 5],
  ['repeat', 8],
  ['command', 7],
  ['reply', 8],
  ['mention', 8],
];
const kindTotal = kindWeights.reduce((s, [, w]) => s + w, 0);
const thirdParty = [...sevenTvEmoteNames, ...bttvEmoteNames];

interface ChannelPool {
  viewers: Account[];
  owner: Account | undefined;
  recent: ChatMessage[];
}

export class CrowdGenerator {
  private readonly pools = new Map<string, ChannelPool>();

  constructor(
    private readonly world: World,
    private readonly random: SeededRandom,
  ) {}

  /** Forget cached viewer pools (after reset or account changes). */
  invalidate(): void {
    this.pools.clear();
  }

  private pool(channel: Channel): ChannelPool {
    const key = `${channel.platform}:${channel.id}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const viewers = this.world.accountsOf(channel.platform, 'viewer');
      pool = {
        viewers: viewers.length ? viewers : this.world.accountsOf(channel.platform),
        owner: this.world.account(channel.platform, channel.id),
        recent: [],
      };
      this.pools.set(key, pool);
    }
    return pool;
  }

  private pickKind(): Kind {
    let roll = this.random.next() * kindTotal;
    for (const [kind, weight] of kindWeights) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return 'plain';
  }

  /** One chat message from a random viewer (not yet posted). */
  message(channel: Channel): ChatMessage {
    const r = this.random;
    const pool = this.pool(channel);
    const author = r.pick(pool.viewers);
    let kind = this.pickKind();
    if (kind === 'twitchEmote' && channel.platform !== 'twitch') kind = 'thirdPartyEmote';
    if ((kind === 'repeat' || kind === 'reply') && pool.recent.length === 0) kind = 'plain';
    let text: string;
    let emotes: ChatMessage['emotes'] = [];
    let replyToId: string | null = null;
    switch (kind) {
      case 'plain':
        text = r.pick(plainMessages);
        break;
      case 'twitchEmote': {
        const emote = r.pick(twitchEmotes);
        const prefix = r.chance(0.5) ? `${r.pick(plainMessages)} ` : '';
        text = `${prefix}${emote.name}`;
        emotes = [{ id: emote.id, name: emote.name, start: prefix.length, end: prefix.length + emote.name.length - 1 }];
        break;
      }
      case 'thirdPartyEmote':
        text = r.chance(0.5) ? `${r.pick(thirdParty)} ${r.pick(plainMessages)}` : `${r.pick(plainMessages)} ${r.pick(thirdParty)}`;
        break;
      case 'link':
        text = r.pick(links);
        break;
      case 'caps':
        text = r.pick(capsMessages);
        break;
      case 'emoteSpam': {
        const useTwitch = channel.platform === 'twitch' && r.chance(0.4);
        const emote = useTwitch ? r.pick(twitchEmotes) : undefined;
        const name = emote?.name ?? r.pick(thirdParty);
        const count = r.int(3, 8);
        const words: string[] = [];
        for (let i = 0; i < count; i++) words.push(name);
        text = words.join(' ');
        if (emote)
          emotes = words.map((_, i) => ({
            id: emote.id,
            name,
            start: i * (name.length + 1),
            end: i * (name.length + 1) + name.length - 1,
          }));
        break;
      }
      case 'repeat': {
        const source = r.pick(pool.recent);
        text = source.text;
        emotes = source.emotes;
        break;
      }
      case 'command': {
        const command = r.pick(commands);
        text = command.endsWith('@') ? `${command}${r.pick(pool.viewers).login}` : command;
        break;
      }
      case 'reply': {
        const parent = r.pick(pool.recent);
        const parentAuthor = this.world.account(channel.platform, parent.authorId);
        replyToId = channel.platform === 'twitch' || channel.platform === 'kick' ? parent.id : null;
        text = `@${parentAuthor?.login ?? 'someone'} ${r.pick(replyOpeners)}`;
        break;
      }
      case 'mention': {
        const target = r.chance(0.3) && pool.owner ? pool.owner : r.pick(pool.viewers);
        text = `@${target.login} ${r.pick(plainMessages)}`;
        break;
      }
    }
    const message: ChatMessage = {
      id: r.uuid(),
      platform: channel.platform,
      channelId: channel.id,
      authorId: author.id,
      text,
      emotes,
      replyToId,
      origin: 'crowd',
      deleted: false,
      createdAt: new Date(),
    };
    if (pool.recent.length < 50) pool.recent.push(message);
    else pool.recent[r.int(0, 49)] = message;
    return message;
  }

  /** One non-chat event (follow, sub, resub, gift, cheer/Super Chat/kicks/gift, raid…) for a channel. */
  event(channel: Channel): ChannelEvent {
    const r = this.random;
    const pool = this.pool(channel);
    const viewer = r.pick(pool.viewers);
    const base = { id: r.uuid(), platform: channel.platform, channelId: channel.id, createdAt: new Date() };
    const roll = r.next();
    const tier = r.chance(0.85) ? 1 : r.chance(0.7) ? 2 : 3;
    switch (channel.platform) {
      case 'twitch':
        if (roll < 0.45) return { ...base, type: 'follow', userId: viewer.id, data: {} };
        if (roll < 0.6) return { ...base, type: 'sub', userId: viewer.id, data: { tier, isGift: false } };
        if (roll < 0.72)
          return {
            ...base,
            type: 'resub',
            userId: viewer.id,
            data: { tier, months: r.int(2, 48), streak: r.int(1, 12), durationMonths: 1, message: r.pick(plainMessages) },
          };
        if (roll < 0.82) {
          const count = r.pick([1, 1, 5, 10, 20]);
          const anonymous = r.chance(0.1);
          return {
            ...base,
            type: 'gift',
            userId: anonymous ? null : viewer.id,
            data: { tier, count, anonymous, cumulativeTotal: count + r.int(0, 100) },
          };
        }
        if (roll < 0.95)
          return {
            ...base,
            type: 'cheer',
            userId: viewer.id,
            data: { bits: r.pick([1, 100, 100, 500, 1000, 5000]), message: r.pick(cheerMessages), anonymous: false },
          };
        return this.raid(channel, base);
      case 'youtube':
        if (roll < 0.35) return { ...base, type: 'membership', userId: viewer.id, data: { level: 'Member', months: 1 } };
        if (roll < 0.5)
          return {
            ...base,
            type: 'resub',
            userId: viewer.id,
            data: { level: 'Member', months: r.int(2, 24), message: r.pick(plainMessages) },
          };
        if (roll < 0.8)
          return {
            ...base,
            type: 'superchat',
            userId: viewer.id,
            data: { amount: r.pick([2, 5, 10, 20, 50, 100]), currency: 'USD', message: r.pick(plainMessages) },
          };
        if (roll < 0.9) return { ...base, type: 'supersticker', userId: viewer.id, data: { amount: r.pick([1, 2, 5]), currency: 'USD' } };
        return { ...base, type: 'membership_gift', userId: viewer.id, data: { count: r.pick([1, 5, 10]) } };
      case 'kick':
        if (roll < 0.5) return { ...base, type: 'follow', userId: viewer.id, data: {} };
        if (roll < 0.65) return { ...base, type: 'sub', userId: viewer.id, data: { months: 1 } };
        if (roll < 0.75) return { ...base, type: 'resub', userId: viewer.id, data: { months: r.int(2, 24) } };
        if (roll < 0.85) return { ...base, type: 'gift', userId: viewer.id, data: { count: r.pick([1, 5, 10]) } };
        return {
          ...base,
          type: 'kicks',
          userId: viewer.id,
          data: { amount: r.pick([10, 50, 100, 500, 1000]), message: r.pick(plainMessages) },
        };
      case 'tiktok':
        if (roll < 0.3) return { ...base, type: 'like', userId: viewer.id, data: { count: r.int(1, 15) } };
        if (roll < 0.55) return { ...base, type: 'member_join', userId: viewer.id, data: {} };
        if (roll < 0.75) return { ...base, type: 'follow', userId: viewer.id, data: {} };
        if (roll < 0.8) return { ...base, type: 'sub', userId: viewer.id, data: { months: 1 } };
        return {
          ...base,
          type: 'tiktok_gift',
          userId: viewer.id,
          data: { giftName: r.pick(['Rose', 'TikTok', 'Heart Me', 'Galaxy']), count: r.int(1, 5), diamondCount: r.pick([1, 1, 5, 1000]) },
        };
      case 'spotify':
      case 'discord':
        return { ...base, type: 'follow', userId: viewer.id, data: {} };
    }
  }

  private raid(channel: Channel, base: { id: string; platform: Channel['platform']; channelId: string; createdAt: Date }): ChannelEvent {
    const others = this.world.accountsOf(channel.platform, 'streamer').filter((a) => a.id !== channel.id);
    const raider = others.length ? this.random.pick(others) : this.random.pick(this.pool(channel).viewers);
    return { ...base, type: 'raid', userId: raider.id, data: { viewers: this.random.int(3, 500) } };
  }
}
