/**
 * YouTube live chat items (liveChatMessage resources) → normalised platform events. Pure.
 * Super Chats, stickers and memberships arrive as chat item types; deletions and bans too.
 */
import type { ChatAuthor } from '@greenroom/contracts/api/events';
import type { PlatformEvent } from '../port';
import type { YoutubeChatItem } from './youtube-client';

type Details = NonNullable<YoutubeChatItem['authorDetails']>;

/** YouTube has no login: the handle-like form of the display name stands in (mentions, commands). */
export function youtubeLogin(displayName: string): string {
  return displayName.replace(/^@/, '').replace(/\s+/g, '').toLowerCase();
}

function author(details: Details | undefined, fallbackId: string): ChatAuthor {
  const d = details ?? { channelId: fallbackId, displayName: fallbackId };
  const badges: ChatAuthor['badges'] = [];
  if (d.isChatOwner) badges.push({ set_id: 'owner', id: '1', label: 'Owner' });
  if (d.isChatModerator) badges.push({ set_id: 'moderator', id: '1', label: 'Moderator' });
  if (d.isChatSponsor) badges.push({ set_id: 'member', id: '1', label: 'Member' });
  if (d.isVerified) badges.push({ set_id: 'verified', id: '1', label: 'Verified' });
  return {
    provider_user_id: d.channelId,
    login: youtubeLogin(d.displayName),
    display_name: d.displayName,
    color: null,
    avatar_url: d.profileImageUrl || null,
    badges,
    roles: {
      broadcaster: d.isChatOwner === true,
      moderator: d.isChatModerator === true,
      vip: false,
      subscriber: d.isChatSponsor === true,
      member: d.isChatSponsor === true,
      verified: d.isVerified === true,
    },
  };
}

function mentionsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|\s)@([\p{L}\p{N}._-]{2,30})/gu)) if (match[1]) found.add(match[1].toLowerCase());
  return [...found];
}

function viewer(
  details: Details | undefined,
  fallbackId: string | undefined,
): { provider_user_id: string; login: string; display_name: string } | null {
  const id = details?.channelId ?? fallbackId;
  if (!id) return null;
  const name = details?.displayName ?? id;
  return { provider_user_id: id, login: youtubeLogin(name), display_name: name };
}

function iso(value: string | undefined, fallback: string): string {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

/** Maps one live chat item; unknown types map to nothing. */
export function mapYoutubeChatItem(item: YoutubeChatItem, receivedAt: string): PlatformEvent[] {
  const s = item.snippet;
  const at = iso(s.publishedAt, receivedAt);
  const authorId = item.authorDetails?.channelId ?? s.authorChannelId ?? '';
  const chat = (text: string, highlight: string | null): PlatformEvent => ({
    kind: 'chat',
    message: {
      provider_message_id: item.id,
      author: author(item.authorDetails, authorId),
      text,
      emotes: [],
      reply: null,
      mentions: mentionsIn(text),
      highlight,
      sent_at: at,
      deleted: false,
    },
  });
  const activity = {
    provider_event_id: item.id,
    viewer: viewer(item.authorDetails, s.authorChannelId),
    tier: null,
    months: null,
    count: null,
    amount: null,
    message: null,
    occurred_at: at,
  };
  switch (s.type) {
    case 'textMessageEvent':
      return [chat(s.textMessageDetails?.messageText ?? s.displayMessage ?? '', null)];
    case 'superChatEvent': {
      const d = s.superChatDetails;
      const comment = d?.userComment ?? '';
      const out: PlatformEvent[] = [
        {
          kind: 'activity',
          activity: {
            ...activity,
            provider_event_id: `superchat:${item.id}`,
            type: 'superchat',
            tier: d?.tier !== undefined ? String(d.tier) : null,
            amount: d?.amountDisplayString ?? null,
            message: comment || null,
          },
        },
      ];
      if (comment) out.push(chat(comment, d?.amountDisplayString ?? null));
      return out;
    }
    case 'superStickerEvent': {
      const d = s.superStickerDetails;
      return [
        {
          kind: 'activity',
          activity: {
            ...activity,
            type: 'supersticker',
            tier: d?.tier !== undefined ? String(d.tier) : null,
            amount: d?.amountDisplayString ?? null,
            message: d?.superStickerMetadata?.altText ?? null,
          },
        },
      ];
    }
    case 'newSponsorEvent':
      return [
        { kind: 'activity', activity: { ...activity, type: 'membership', tier: s.newSponsorDetails?.memberLevelName ?? null, months: 1 } },
      ];
    case 'memberMilestoneChatEvent': {
      const d = s.memberMilestoneChatDetails;
      const out: PlatformEvent[] = [
        {
          kind: 'activity',
          activity: {
            ...activity,
            provider_event_id: `milestone:${item.id}`,
            type: 'membership',
            tier: d?.memberLevelName ?? null,
            months: d?.memberMonth ?? null,
            message: d?.userComment || null,
          },
        },
      ];
      if (d?.userComment) out.push(chat(d.userComment, d.memberMonth ? `Member for ${d.memberMonth} months` : null));
      return out;
    }
    case 'membershipGiftingEvent': {
      const d = s.membershipGiftingDetails;
      return [
        {
          kind: 'activity',
          activity: {
            ...activity,
            type: 'membership_gift',
            tier: d?.giftMembershipsLevelName ?? null,
            count: d?.giftMembershipsCount ?? null,
          },
        },
      ];
    }
    case 'giftMembershipReceivedEvent': {
      // One per recipient of a membershipGiftingEvent, whose count already counts it: not a membership of its own.
      const d = s.giftMembershipReceivedDetails;
      return [{ kind: 'activity', activity: { ...activity, type: 'membership_gift_received', tier: d?.memberLevelName ?? null } }];
    }
    case 'messageDeletedEvent': {
      const deleted = s.messageDeletedDetails?.deletedMessageId;
      if (!deleted) return [];
      return [
        {
          kind: 'moderation',
          event: {
            kind: 'delete',
            target: null,
            provider_message_id: deleted,
            duration_seconds: null,
            reason: null,
            moderator: null,
            source: 'platform',
            occurred_at: at,
          },
        },
      ];
    }
    case 'userBannedEvent': {
      const d = s.userBannedDetails;
      if (!d) return [];
      const seconds = d.banType === 'temporary' ? Number(d.banDurationSeconds ?? 300) : null;
      return [
        {
          kind: 'moderation',
          event: {
            kind: seconds === null ? 'ban' : 'timeout',
            target: {
              provider_user_id: d.bannedUserDetails.channelId,
              display_name: d.bannedUserDetails.displayName ?? d.bannedUserDetails.channelId,
            },
            provider_message_id: null,
            duration_seconds: seconds !== null && Number.isFinite(seconds) ? Math.round(seconds) : null,
            reason: null,
            moderator: item.authorDetails ? { kind: 'platform', user_id: null, display_name: item.authorDetails.displayName } : null,
            source: 'platform',
            occurred_at: at,
          },
        },
      ];
    }
    default:
      return [];
  }
}
