/**
 * Moderation actions (ban/timeout, unban, delete message) on one connection: refused with a clear
 * error where the platform cannot do it (capabilities are data: the provider catalogue), converted
 * by the adapters, recorded in the audit log, and stored then published by the chat pipeline as a
 * ModerationEvent with source `greenroom`. The actor is a staff member, the channel's bot (a
 * chatbot effect, e.g. a spam filter's timeout) or Greenroom itself.
 */
import type { ModerationEvent } from '@greenroom/contracts/api/events';
import { providers, timeoutProblem, type ChannelProviderId } from '@greenroom/contracts/providers';
import type { AuditRecorder } from '../audit';
import { badRequest, notFound, unsupported } from '../../lib/errors';
import type { ConnectionActionsSource } from '../../platforms/connection-manager';
import type { IngestPipeline } from '../../pipeline/ingest';
import type { BanResult, ModerationFacet } from '../../platforms/port';
import type { ModerationNames } from './moderation-names';

export interface ModerationTarget {
  channelId: string;
  provider: ChannelProviderId;
  channelProviderId: string;
}

/** Who moderates: a staff member, the channel's bot, or Greenroom itself. */
export type Moderator =
  { kind?: 'user'; userId: string; displayName: string } | { kind: 'bot'; displayName: string } | { kind: 'system'; displayName: string };

function actorOf(by: Moderator): { kind: 'user' | 'bot' | 'system'; userId: string | null; displayName: string } {
  if (by.kind === 'bot' || by.kind === 'system') return { kind: by.kind, userId: null, displayName: by.displayName };
  return { kind: 'user', userId: by.userId, displayName: by.displayName };
}

export interface ModerationServiceDeps {
  connections: Pick<ConnectionActionsSource, 'actions'>;
  /** Publishes Greenroom's own moderation events like the platforms' (chat log, fan-out). */
  ingest: Pick<IngestPipeline, 'submit'>;
  audit: AuditRecorder;
  /** Names and texts from the chat log, so the audit log and events show names, not ids. */
  names: ModerationNames;
}

export class ModerationService {
  constructor(private readonly deps: ModerationServiceDeps) {}

  private viewerName(t: ModerationTarget, providerViewerId: string): Promise<string | null> {
    return this.deps.names.viewerName(t.channelId, t.provider, providerViewerId);
  }

  private message(t: ModerationTarget, providerMessageId: string): Promise<{ author: string | null; text: string | null }> {
    return this.deps.names.message(t.channelId, t.provider, providerMessageId);
  }

  private async connection(t: ModerationTarget): Promise<{ actions: ModerationFacet; providerChannelId: string }> {
    const found = await this.deps.connections.actions(t.channelProviderId);
    if (found.channelId !== t.channelId || found.provider !== t.provider) throw notFound('This platform connection does not exist.');
    const actions = found.actions.moderation;
    if (!actions) throw unsupported(`${providers[t.provider].name} has no moderation through Greenroom.`);
    return { actions, providerChannelId: found.providerChannelId };
  }

  /** Stores the action in the chat log and publishes it (resolves once stored). */
  private async publish(
    t: ModerationTarget,
    providerChannelId: string,
    event: Omit<ModerationEvent, 'id' | 'channel_id' | 'channel_provider_id' | 'provider' | 'source' | 'occurred_at' | 'moderator'>,
    by: Moderator,
  ): Promise<void> {
    const actor = actorOf(by);
    await this.deps.ingest.submit(
      { channelId: t.channelId, channelProviderId: t.channelProviderId, provider: t.provider, providerChannelId },
      [
        {
          kind: 'moderation',
          event: {
            ...event,
            moderator: { kind: actor.kind, user_id: actor.userId, display_name: actor.displayName },
            source: 'greenroom',
            occurred_at: new Date().toISOString(),
          },
        },
      ],
    );
  }

  private audit(t: ModerationTarget, by: Moderator, action: string, data: Record<string, unknown>): Promise<void> {
    const actor = actorOf(by);
    return this.deps.audit.record({ channelId: t.channelId, actorUserId: actor.userId, actorKind: actor.kind, action, data });
  }

  async ban(
    t: ModerationTarget,
    input: { providerViewerId: string; durationSeconds?: number; reason?: string },
    by: Moderator,
  ): Promise<BanResult> {
    const info = providers[t.provider];
    const timeout = input.durationSeconds !== undefined;
    if (!info.ban) throw unsupported(`${info.name} does not support ${timeout ? 'timeouts' : 'bans'} through Greenroom.`);
    if (input.reason !== undefined && input.reason !== '') {
      if (!info.banReason)
        throw unsupported(`${info.name} ${timeout ? 'timeouts' : 'bans'} cannot carry a reason; leave the reason empty.`);
      if (info.banReasonMaxLength !== null && [...input.reason].length > info.banReasonMaxLength) {
        const message = `${info.name} ban reasons are limited to ${info.banReasonMaxLength} characters.`;
        throw badRequest(message, { reason: message });
      }
    }
    // A duration the platform would not apply as given (Kick: whole minutes) is refused before anything is sent.
    const problem = timeout ? timeoutProblem(t.provider, input.durationSeconds!) : null;
    if (problem) throw badRequest(problem, { duration_seconds: problem });
    const { actions, providerChannelId } = await this.connection(t);
    const reason = input.reason || undefined;
    const name = await this.viewerName(t, input.providerViewerId);
    // The audit log and the moderation event record what the platform applied.
    const applied = await actions.ban({
      providerViewerId: input.providerViewerId,
      ...(timeout ? { durationSeconds: input.durationSeconds } : {}),
      ...(reason ? { reason } : {}),
    });
    const kind = timeout ? 'timeout' : 'ban';
    await this.audit(t, by, `moderation.${kind}`, {
      provider: t.provider,
      channel_provider_id: t.channelProviderId,
      provider_viewer_id: input.providerViewerId,
      viewer_display_name: name,
      duration_seconds: applied.durationSeconds,
      ...(timeout && applied.durationSeconds !== input.durationSeconds ? { requested_duration_seconds: input.durationSeconds } : {}),
      reason: reason ?? null,
    });
    await this.publish(
      t,
      providerChannelId,
      {
        kind,
        target: { provider_user_id: input.providerViewerId, display_name: name ?? input.providerViewerId },
        provider_message_id: null,
        duration_seconds: applied.durationSeconds,
        reason: reason ?? null,
      },
      by,
    );
    return applied;
  }

  async unban(t: ModerationTarget, input: { providerViewerId: string }, by: Moderator): Promise<void> {
    const info = providers[t.provider];
    if (!info.unban) throw unsupported(`${info.name} does not support unbanning through Greenroom.`);
    const { actions, providerChannelId } = await this.connection(t);
    const name = await this.viewerName(t, input.providerViewerId);
    await actions.unban({ providerViewerId: input.providerViewerId });
    await this.audit(t, by, 'moderation.unban', {
      provider: t.provider,
      channel_provider_id: t.channelProviderId,
      provider_viewer_id: input.providerViewerId,
      viewer_display_name: name,
    });
    await this.publish(
      t,
      providerChannelId,
      {
        kind: 'unban',
        target: { provider_user_id: input.providerViewerId, display_name: name ?? input.providerViewerId },
        provider_message_id: null,
        duration_seconds: null,
        reason: null,
      },
      by,
    );
  }

  async deleteMessage(t: ModerationTarget, input: { providerMessageId: string }, by: Moderator): Promise<void> {
    const info = providers[t.provider];
    if (!info.deleteMessage) throw unsupported(`${info.name} does not support deleting messages through Greenroom.`);
    const { actions, providerChannelId } = await this.connection(t);
    const message = await this.message(t, input.providerMessageId);
    await actions.deleteMessage({ providerMessageId: input.providerMessageId });
    await this.audit(t, by, 'moderation.delete_message', {
      provider: t.provider,
      channel_provider_id: t.channelProviderId,
      provider_message_id: input.providerMessageId,
      viewer_display_name: message.author,
      message_text: message.text,
    });
    await this.publish(
      t,
      providerChannelId,
      { kind: 'delete', target: null, provider_message_id: input.providerMessageId, duration_seconds: null, reason: null },
      by,
    );
  }
}
