import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { oauthCallbackResultSchema, type oauthCallbackBodySchema, type OauthCallbackResult } from '@greenroom/contracts/api/user';
import { api } from '../../../lib/api-client';

export type OauthCallbackBody = z.input<typeof oauthCallbackBodySchema>;

/** Hands the platform's answer (`code`/`state` or `error`) to the server, which finishes the OAuth flow. */
export function completeOauth(provider: string, body: OauthCallbackBody): Promise<OauthCallbackResult> {
  return api.post(`/api/2/auth/${encodeURIComponent(provider)}/callback`, body, { schema: oauthCallbackResultSchema });
}

export function useCompleteOauth() {
  return useMutation({
    mutationFn: ({ provider, body }: { provider: string; body: OauthCallbackBody }) => completeOauth(provider, body),
    meta: { errorToast: false },
  });
}
