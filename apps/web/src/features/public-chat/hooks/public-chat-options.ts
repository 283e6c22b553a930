import { channelProviderIds, type ChannelProviderId } from '@greenroom/contracts/providers';

export interface PublicChatOptions {
  /** Font size in px (10–64, default 16). */
  fontSize: number;
  /** Platforms to show; empty = all. */
  providers: ChannelProviderId[];
  transparent: boolean;
  /** Messages shown at most (1–500, default 50). */
  max: number;
}

export const DEFAULT_PUBLIC_CHAT_MAX = 50;

function clampInt(raw: string | null, min: number, max: number, fallback: number): number {
  const n = raw === null ? NaN : Number.parseInt(raw, 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/** Reads `font_size`, `providers`, `transparent=1` and `max` from the popout's query string; bad values fall back to defaults. */
export function parsePublicChatOptions(params: URLSearchParams): PublicChatOptions {
  const known = new Set<string>(channelProviderIds);
  const providers = (params.get('providers') ?? '')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter((p): p is ChannelProviderId => known.has(p));
  const transparent = params.get('transparent');
  return {
    fontSize: clampInt(params.get('font_size'), 10, 64, 16),
    providers: [...new Set(providers)],
    transparent: transparent === '1' || transparent === 'true',
    max: clampInt(params.get('max'), 1, 500, DEFAULT_PUBLIC_CHAT_MAX),
  };
}
