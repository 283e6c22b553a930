/** The port's facets follow the provider catalogue, for every adapter this server runs. */
import { describe, expect, it } from 'vitest';
import { oauthProviderIds, providers } from '@greenroom/contracts/providers';
import { emulatorEndpoints } from './endpoints';
import { KickClient } from './kick/kick-client';
import { KickWebhookReceiver } from './kick/kick-webhook-receiver';
import { facetsFor, type ChannelConnectionContext, type TokenSource } from './port';
import { createPlatformAdapters } from './registry';

const apps = Object.fromEntries(oauthProviderIds.map((p) => [p, { clientId: `id-${p}`, clientSecret: `secret-${p}` }])) as Parameters<
  typeof emulatorEndpoints
>[1];

function token(provider: TokenSource['provider']): TokenSource {
  return {
    provider,
    providerUserId: '1',
    scopes: [],
    accessToken: async () => 'token',
    refreshAfterUnauthorized: async () => 'token',
  };
}

describe('platform adapters', () => {
  const endpoints = emulatorEndpoints('http://127.0.0.1:9', apps);
  const kickWebhooks = new KickWebhookReceiver({
    client: new KickClient({ apiUrl: endpoints.kick.apiUrl, apiV2Url: endpoints.kick.apiV2Url }),
    store: { has: async () => false, remember: async () => true, forgetBefore: async () => 0 },
  });
  const adapters = createPlatformAdapters({ endpoints, kickWebhooks });

  it('cover every channel platform of the catalogue', () => {
    expect(adapters.map((a) => a.provider).sort()).toEqual(['kick', 'spotify', 'tiktok', 'twitch', 'youtube']);
  });

  it.each(adapters.map((a) => [a.provider, a] as const))('%s offers exactly the facets its catalogue entry gives', (provider, adapter) => {
    const ctx: Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'> = {
      channelId: 'c1',
      channelProviderId: 'cp1',
      provider,
      providerChannelId: '1',
      providerChannelName: 'someone',
      broadcaster: token(provider),
      bot: null,
      state: {},
      saveState: async () => {},
      bans: { get: async () => null, set: async () => {}, delete: async () => {} },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    };
    const facets = Object.entries(adapter.actions(ctx))
      .filter(([, facet]) => facet !== undefined)
      .map(([name]) => name)
      .sort();
    expect(facets).toEqual(facetsFor(providers[provider]).sort());
  });
});
