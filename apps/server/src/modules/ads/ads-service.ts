/**
 * Ad breaks ("Run an ad", Editors): on a connection whose platform has them (Twitch's Start Commercial). The
 * platform decides who may (partners and affiliates, while live) and answers the length it serves and how long
 * until the next ad; that wait is kept per connection, so a second ad inside it is refused here with the time
 * left instead of a bare refusal. Each ad run is an audit row (`stream.commercial`).
 */
import type { CommercialResult } from '@greenroom/contracts/api/ads';
import { providers } from '@greenroom/contracts/providers';
import { notFound, unsupported } from '../../lib/errors';
import type { ConnectionActionsSource } from '../../platforms/connection-manager';
import { PlatformError } from '../../platforms/platform-error';
import type { AuditRecorder } from '../audit';

export interface AdsServiceDeps {
  connections: ConnectionActionsSource;
  audit: AuditRecorder;
  now?: () => number;
}

/** "4:05" for 245 seconds. */
function minutes(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export class AdsService {
  /** channel provider id → when the platform allows the next ad (ms). */
  private readonly nextAt = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly deps: AdsServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async start(
    target: { channelId: string; channelProviderId: string },
    lengthSeconds: number,
    actor: { userId: string | null },
  ): Promise<CommercialResult> {
    const found = await this.deps.connections.actions(target.channelProviderId);
    if (found.channelId !== target.channelId) throw notFound('This platform connection does not exist.');
    const name = providers[found.provider].name;
    const ads = found.actions.ads;
    if (!ads) throw unsupported(`${name} has no ad breaks Greenroom can run.`);
    const waitMs = (this.nextAt.get(target.channelProviderId) ?? 0) - this.now();
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new PlatformError('rate_limited', found.provider, `${name} allows the next ad in ${minutes(seconds)}.`, {
        retryAfterSeconds: seconds,
        reason: 'commercial_cooldown',
      });
    }
    const result = await ads.startCommercial(lengthSeconds);
    this.nextAt.set(target.channelProviderId, this.now() + result.retryAfterSeconds * 1000);
    await this.deps.audit.record({
      channelId: target.channelId,
      actorUserId: actor.userId,
      action: 'stream.commercial',
      data: {
        provider: found.provider,
        channel_provider_id: target.channelProviderId,
        length_seconds: result.lengthSeconds,
        requested_length_seconds: lengthSeconds,
      },
    });
    return { length_seconds: result.lengthSeconds, retry_after_seconds: result.retryAfterSeconds, message: result.message };
  }
}
