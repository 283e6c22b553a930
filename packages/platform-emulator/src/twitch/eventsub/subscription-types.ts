/** The EventSub subscription types the emulator serves: versions, conditions and authorization rules. */
import type { Token, World } from '../../world';
import { isModerator } from '../moderation-rules';

export type Condition = Record<string, string>;

export interface SubscriptionTypeSpec {
  version: string;
  /** Required condition fields (raid: exactly one of `oneOf`). */
  required: string[];
  oneOf?: string[];
  scope: string | null;
  /** May this token's user receive these events? */
  authorized(world: World, token: Token, condition: Condition): boolean;
  /** The routing key deliveries are looked up by. */
  routeKey(condition: Condition): string;
}

const byBroadcaster = (c: Condition): string => c.broadcaster_user_id ?? '';
const isTokenUser = (key: string) => (_w: World, token: Token, c: Condition) => c[key] === token.userId;
const chatRead: SubscriptionTypeSpec = {
  version: '1',
  required: ['broadcaster_user_id', 'user_id'],
  scope: 'user:read:chat',
  authorized: isTokenUser('user_id'),
  routeKey: byBroadcaster,
};
const broadcasterOnly = (scope: string): SubscriptionTypeSpec => ({
  version: '1',
  required: ['broadcaster_user_id'],
  scope,
  authorized: isTokenUser('broadcaster_user_id'),
  routeKey: byBroadcaster,
});
const publicType: SubscriptionTypeSpec = {
  version: '1',
  required: ['broadcaster_user_id'],
  scope: null,
  authorized: () => true,
  routeKey: byBroadcaster,
};

export const subscriptionTypes: Record<string, SubscriptionTypeSpec> = {
  'channel.chat.message': chatRead,
  'channel.chat.message_delete': chatRead,
  'channel.chat.clear_user_messages': chatRead,
  'channel.ban': broadcasterOnly('channel:moderate'),
  'channel.follow': {
    version: '2',
    required: ['broadcaster_user_id', 'moderator_user_id'],
    scope: 'moderator:read:followers',
    authorized: (world, token, c) => {
      const channel = world.channel('twitch', c.broadcaster_user_id ?? '');
      return c.moderator_user_id === token.userId && channel !== undefined && isModerator(channel, token.userId);
    },
    routeKey: byBroadcaster,
  },
  'channel.subscribe': broadcasterOnly('channel:read:subscriptions'),
  'channel.subscription.gift': broadcasterOnly('channel:read:subscriptions'),
  'channel.subscription.message': broadcasterOnly('channel:read:subscriptions'),
  'channel.cheer': broadcasterOnly('bits:read'),
  'channel.raid': {
    version: '1',
    required: [],
    oneOf: ['from_broadcaster_user_id', 'to_broadcaster_user_id'],
    scope: null,
    authorized: () => true,
    routeKey: (c) => (c.to_broadcaster_user_id ? `to:${c.to_broadcaster_user_id}` : `from:${c.from_broadcaster_user_id ?? ''}`),
  },
  'stream.online': publicType,
  'stream.offline': publicType,
};

/** Validates a condition; returns an error message or null. */
export function validateCondition(spec: SubscriptionTypeSpec, condition: Record<string, unknown>): string | null {
  for (const key of spec.required) {
    const value = condition[key];
    if (typeof value !== 'string' || value === '') return `The parameter "condition.${key}" is required.`;
  }
  if (spec.oneOf) {
    const present = spec.oneOf.filter((k) => typeof condition[k] === 'string' && condition[k] !== '');
    if (present.length !== 1) return `The condition must contain exactly one of ${spec.oneOf.join(', ')}.`;
  }
  return null;
}

/** Only the condition fields the type defines, as strings (the order Twitch echoes them back). */
export function normaliseCondition(spec: SubscriptionTypeSpec, condition: Record<string, unknown>): Condition {
  const out: Condition = {};
  for (const key of [...spec.required, ...(spec.oneOf ?? [])]) {
    const value = condition[key];
    if (spec.oneOf?.includes(key)) out[key] = typeof value === 'string' ? value : '';
    else if (typeof value === 'string') out[key] = value;
  }
  return out;
}
