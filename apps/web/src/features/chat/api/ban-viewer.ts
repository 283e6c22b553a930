import { useMutation } from '@tanstack/react-query';
import type { BanBody } from '@greenroom/contracts/api/moderation';
import type { ChannelProviderId } from '@greenroom/contracts/providers';
import { api } from '../../../lib/api-client';

export interface ModerationTarget {
  channelId: string;
  provider: ChannelProviderId;
  channelProviderId: string;
  providerViewerId: string;
  displayName: string;
}

export function moderationBase(target: Pick<ModerationTarget, 'channelId' | 'provider' | 'channelProviderId'>): string {
  return `/api/2/channels/${encodeURIComponent(target.channelId)}/${target.provider}/${encodeURIComponent(target.channelProviderId)}`;
}

/** Bans a viewer; with `durationSeconds` it is a timeout. A reason is sent only where the platform takes one. */
export function banViewer(target: ModerationTarget, options: { durationSeconds?: number; reason?: string }): Promise<void> {
  const body: BanBody = { provider_viewer_id: target.providerViewerId };
  if (options.durationSeconds !== undefined) body.duration_seconds = options.durationSeconds;
  const reason = options.reason?.trim();
  if (reason && (target.provider === 'twitch' || target.provider === 'kick')) body.reason = reason;
  return api.post(`${moderationBase(target)}/ban`, body);
}

export function useBanViewer() {
  return useMutation({
    mutationFn: ({ target, durationSeconds, reason }: { target: ModerationTarget; durationSeconds?: number; reason?: string }) =>
      banViewer(target, { durationSeconds, reason }),
    meta: { errorToast: false }, // useModeration (a toast) or the dialog's form (an alert) shows the error once
  });
}
