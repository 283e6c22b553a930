import type { Activity, ActivityType } from '@greenroom/contracts/api/events';

export const activityTypeLabels: Record<ActivityType, string> = {
  follow: 'Follow',
  sub: 'Sub',
  resub: 'Resub',
  gift: 'Gift subs',
  gift_received: 'Gifted sub received',
  raid: 'Raid',
  cheer: 'Cheer',
  superchat: 'Super Chat',
  supersticker: 'Super Sticker',
  membership: 'Membership',
  membership_gift: 'Gifted memberships',
  membership_gift_received: 'Gifted membership received',
  kicks: 'Kicks',
  tiktok_gift: 'TikTok gift',
  stream_online: 'Stream online',
  stream_offline: 'Stream offline',
};

const actions: Record<ActivityType, string> = {
  follow: 'followed',
  sub: 'subscribed',
  resub: 'resubscribed',
  gift: 'gifted subs',
  gift_received: 'received a gifted sub',
  raid: 'raided',
  cheer: 'cheered',
  superchat: 'sent a Super Chat',
  supersticker: 'sent a Super Sticker',
  membership: 'became a member',
  membership_gift: 'gifted memberships',
  membership_gift_received: 'received a gifted membership',
  kicks: 'sent Kicks',
  tiktok_gift: 'sent a gift',
  stream_online: 'Stream went live',
  stream_offline: 'Stream ended',
};

function tierLabel(tier: string): string {
  const twitch = /^([123])000$/.exec(tier);
  return twitch ? `Tier ${twitch[1]}` : tier;
}

/** "Alice raided", "Anonymous gifted subs", "Stream went live". */
export function activityHeadline(activity: Activity): string {
  if (activity.type === 'stream_online' || activity.type === 'stream_offline') return actions[activity.type];
  return `${activity.viewer?.display_name ?? 'Anonymous'} ${actions[activity.type]}`;
}

/** One fact shown as a chip: its text and what it means (tooltip and accessible name). */
export interface ActivityDetail {
  text: string;
  meaning: string;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The facts of an activity as explained chips, e.g. "Tier 1" (Subscription tier), "12 months" (Months
 * subscribed), "1 gift" (Subscriptions gifted), "500 bits" (Bits cheered), "Gift: Hype" (Kicks gift).
 * Each fact appears once: an amount that already says the count does not get a second chip.
 */
export function activityDetails(activity: Activity): ActivityDetail[] {
  const d: ActivityDetail[] = [];
  const { type, tier, months, count, amount } = activity;
  switch (type) {
    case 'sub':
    case 'resub':
    case 'gift':
    case 'gift_received':
      if (tier) d.push({ text: tierLabel(tier), meaning: 'Subscription tier' });
      if (months != null) d.push({ text: plural(months, 'month', 'months'), meaning: 'Months subscribed' });
      if (type === 'gift' && count != null) d.push({ text: plural(count, 'gift', 'gifts'), meaning: 'Subscriptions gifted' });
      break;
    case 'raid':
      if (count != null) d.push({ text: plural(count, 'viewer', 'viewers'), meaning: 'Viewers who came with the raid' });
      break;
    case 'cheer':
      d.push({ text: amount ?? plural(count ?? 0, 'bit', 'bits'), meaning: 'Bits cheered' });
      break;
    case 'kicks':
      if (count != null) d.push({ text: plural(count, 'Kick', 'Kicks'), meaning: 'Kicks sent' });
      if (tier) d.push({ text: `Gift: ${tier}`, meaning: 'The Kicks gift sent' });
      break;
    case 'tiktok_gift':
      if (tier)
        d.push({
          text: count != null && count > 1 ? `${tier} × ${count}` : tier,
          meaning: count != null && count > 1 ? `Gift sent ${count} times` : 'Gift sent',
        });
      if (amount) d.push({ text: amount, meaning: 'Diamonds the gifts are worth' });
      break;
    case 'superchat':
    case 'supersticker':
      if (amount) d.push({ text: amount, meaning: 'Amount paid' });
      break;
    case 'membership':
      if (tier) d.push({ text: tier, meaning: 'Membership level' });
      if (months != null) d.push({ text: plural(months, 'month', 'months'), meaning: 'Months as a member' });
      break;
    case 'membership_gift':
      if (count != null) d.push({ text: plural(count, 'membership', 'memberships'), meaning: 'Memberships gifted' });
      if (tier) d.push({ text: tier, meaning: 'Membership level' });
      break;
    case 'membership_gift_received':
      if (tier) d.push({ text: tier, meaning: 'Membership level' });
      break;
    case 'follow':
    case 'stream_online':
    case 'stream_offline':
      break;
  }
  return d;
}
