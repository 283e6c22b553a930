/**
 * TikTok LIVE events (decoded Webcast messages as tiktok-live-connector v2 emits them, or the
 * emulator's frames of the same shape) → normalised platform events. Reads both the 2.5 field names
 * (`user.id`, `user.displayId`, `content`, `gift`) and the 2.0–2.4 ones (`userId`, `uniqueId`,
 * `comment`, `giftDetails`). Gift streaks count once, on the event that ends them.
 */
import type { ChatAuthor } from '@greenroom/contracts/api/events';
import type { PlatformEvent } from '../port';

export type TikTokLiveEventType = 'connected' | 'chat' | 'gift' | 'follow' | 'subscribe' | 'like' | 'member' | 'streamEnd';

export interface TikTokLiveEvent {
  type: TikTokLiveEventType;
  data: unknown;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return value && typeof value === 'object' ? (value as Obj) : {};
}

function str(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return null;
}

function num(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

interface TikTokUserInfo {
  id: string;
  login: string;
  name: string;
  avatar: string | null;
  verified: boolean;
}

function userOf(data: Obj): TikTokUserInfo | null {
  const u = obj(data.user);
  const id = str(u.id) ?? str(u.userId) ?? str(data.userId);
  if (!id) return null;
  const handle = str(u.displayId) ?? str(u.uniqueId) ?? id;
  const avatarList = obj(u.avatarThumb).urlList ?? obj(u.profilePicture).url;
  const avatar = Array.isArray(avatarList) ? str(avatarList[0]) : null;
  return { id, login: handle.toLowerCase(), name: str(u.nickname) ?? handle, avatar, verified: u.verified === true };
}

function commonOf(data: Obj): { msgId: string | null; at: string | null } {
  const c = obj(data.common);
  const ms = num(c.createTime);
  return { msgId: str(c.msgId), at: ms !== null && ms > 0 ? new Date(ms).toISOString() : null };
}

function mentionsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|\s)@([A-Za-z0-9_.]{2,24})/g)) if (match[1]) found.add(match[1].toLowerCase());
  return [...found];
}

/** Maps one TikTok LIVE event; `receivedAt` stands in for missing timestamps. */
export function mapTikTokEvent(event: TikTokLiveEvent, receivedAt: string): PlatformEvent[] {
  const data = obj(event.data);
  const { msgId, at } = commonOf(data);
  const occurredAt = at ?? receivedAt;
  const user = userOf(data);
  const viewer = user ? { provider_user_id: user.id, login: user.login, display_name: user.name } : null;
  const activity = { viewer, tier: null, months: null, count: null, amount: null, message: null, occurred_at: occurredAt };
  switch (event.type) {
    case 'connected': {
      const room = obj(data.roomInfo);
      const created = num(room.create_time);
      return [
        {
          kind: 'stream',
          status: {
            is_live: true,
            viewer_count: num(room.user_count),
            title: str(room.title),
            category: null,
            started_at: created ? new Date(created * 1000).toISOString() : null,
          },
        },
      ];
    }
    case 'chat': {
      if (!user) return [];
      const text = str(data.content) ?? str(data.comment) ?? '';
      const author: ChatAuthor = {
        provider_user_id: user.id,
        login: user.login,
        display_name: user.name,
        color: null,
        avatar_url: user.avatar,
        badges: [],
        roles: { broadcaster: false, moderator: false, vip: false, subscriber: false, member: false, verified: user.verified },
      };
      return [
        {
          kind: 'chat',
          message: {
            provider_message_id: msgId ?? `${user.id}:${occurredAt}`,
            author,
            text,
            emotes: [],
            reply: null,
            mentions: mentionsIn(text),
            highlight: null,
            sent_at: occurredAt,
            deleted: false,
          },
        },
      ];
    }
    case 'gift': {
      const gift = obj(data.gift);
      const legacy = obj(data.giftDetails);
      const giftType = num(gift.type) ?? num(legacy.giftType) ?? 0;
      // A streakable gift (type 1) repeats its event while the streak runs: count it once, when it ends.
      if (giftType === 1 && num(data.repeatEnd) !== 1 && data.repeatEnd !== true) return [];
      const count = Math.max(1, num(data.repeatCount) ?? 1);
      const diamonds = num(gift.diamondCount) ?? num(legacy.diamondCount) ?? 0;
      const name = str(gift.name) ?? str(legacy.giftName) ?? str(data.giftId) ?? 'Gift';
      return [
        {
          kind: 'activity',
          activity: {
            ...activity,
            provider_event_id: `gift:${msgId ?? str(data.groupId) ?? `${user?.id ?? ''}:${occurredAt}`}`,
            type: 'tiktok_gift',
            tier: name,
            count,
            amount: `${diamonds * count} diamonds`,
          },
        },
      ];
    }
    case 'follow':
      return viewer
        ? [
            {
              kind: 'activity',
              activity: { ...activity, provider_event_id: `follow:${msgId ?? `${viewer.provider_user_id}:${occurredAt}`}`, type: 'follow' },
            },
          ]
        : [];
    case 'subscribe':
      return viewer
        ? [
            {
              kind: 'activity',
              activity: {
                ...activity,
                provider_event_id: `sub:${msgId ?? `${viewer.provider_user_id}:${occurredAt}`}`,
                type: 'sub',
                months: num(data.subMonth),
              },
            },
          ]
        : [];
    case 'streamEnd':
      return [{ kind: 'stream', status: { is_live: false, viewer_count: null, title: null, category: null, started_at: null } }];
    case 'like':
    case 'member':
      return [];
  }
}
