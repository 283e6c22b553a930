import type { Activity, ActivityType } from '@greenroom/contracts/api/events';

export const activityTypeLabels: Record<ActivityType, string> = {
  follow: 'Follow',
  sub: 'Sub',
  resub: 'Resub',
  gift: 'Gift subs',
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

/** Amount, tier, months and count in display form, e.g. ["$5.00", "Tier 1", "12 months", "42 viewers"]. */
export function activityDetails(activity: Activity): string[] {
  const details: string[] = [];
  if (activity.amount) details.push(activity.amount);
  if (activity.tier) details.push(tierLabel(activity.tier));
  if (activity.months != null) details.push(`${activity.months} ${activity.months === 1 ? 'month' : 'months'}`);
  if (activity.count != null) {
    const unit = activity.type === 'raid' ? 'viewers' : activity.type === 'gift' || activity.type === 'membership_gift' ? 'gifts' : '';
    details.push(unit ? `${activity.count.toLocaleString('en-US')} ${unit}` : `×${activity.count.toLocaleString('en-US')}`);
  }
  return details;
}
