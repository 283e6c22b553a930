/**
 * Changes of who may see what, published on the bus once they are committed, so every open socket
 * that depends on them closes at once (see lib/socket-access.ts): a member's level changed or they
 * were removed, a channel was deleted, a session ended, an account was deleted.
 */
import { channelTopic, userTopic } from '@greenroom/contracts/bus';
import type { EventBus } from './event-bus';

export class AccessEvents {
  constructor(private readonly bus: EventBus) {}

  /** `level` null: no longer a member. */
  memberChanged(channelId: string, userId: string, level: number | null): void {
    this.bus.publish(channelTopic(channelId), { type: 'access.changed', data: { channel_id: channelId, user_id: userId, level } });
  }

  channelDeleted(channelId: string): void {
    this.bus.publish(channelTopic(channelId), { type: 'channel.deleted', data: { channel_id: channelId } });
  }

  sessionEnded(userId: string, sessionId: string): void {
    this.bus.publish(userTopic(userId), { type: 'session.ended', data: { user_id: userId, session_id: sessionId } });
  }

  userDeleted(userId: string): void {
    this.bus.publish(userTopic(userId), { type: 'user.deleted', data: { user_id: userId } });
  }
}
