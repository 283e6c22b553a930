/**
 * Third-party emotes (7TV and BetterTTV) per channel plus their global sets, cached with a TTL and
 * refreshed in the background. `annotate` is synchronous (the chat hot path): it matches
 * whitespace-separated words exactly against the cached sets, skips ranges the platform already
 * marked, and starts a load when a channel is missing or stale.
 */
import { z } from 'zod';
import type { ChatEmote } from '@greenroom/contracts/api/events';
import type { ChannelProviderId } from '@greenroom/contracts/providers';

export type ThirdPartySource = '7tv' | 'betterttv';

export interface ThirdPartyEmote {
  id: string;
  name: string;
  source: ThirdPartySource;
  url: string;
  animated: boolean;
}

export interface EmoteChannel {
  provider: ChannelProviderId;
  providerChannelId: string;
}

export interface EmoteServiceOptions {
  sevenTvApiUrl: string;
  bttvApiUrl: string;
  /** BTTV CDN root (default: cdn.betterttv.net for the real API, `/bttv-cdn` beside the emulator's `/bttv/3`). */
  bttvCdnUrl?: string;
  /** Cache lifetime (default 10 min); a stale set keeps serving while it reloads. */
  ttlMs?: number;
  /** Wait before retrying a failed load (default 60 s). */
  retryMs?: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
  log?: { warn(obj: object, msg?: string): void };
}

interface CachedSet {
  byName: Map<string, ThirdPartyEmote>;
  /** When the set counts as stale. */
  freshUntil: number;
  loading: Promise<void> | null;
}

const sevenTvPlatforms: Partial<Record<ChannelProviderId, string>> = { twitch: 'twitch', kick: 'kick', youtube: 'youtube' };
const bttvPlatforms: Partial<Record<ChannelProviderId, string>> = { twitch: 'twitch', youtube: 'youtube' };

const sevenTvEmote = z.object({
  id: z.string(),
  name: z.string(),
  data: z
    .object({
      animated: z.boolean().optional(),
      host: z.object({ url: z.string(), files: z.array(z.object({ name: z.string() })).optional() }),
    })
    .nullable()
    .optional(),
});
const sevenTvSet = z.object({ emotes: z.array(sevenTvEmote).nullable().optional() });
const sevenTvUser = z.object({ emote_set: sevenTvSet.nullable().optional() });
const bttvEmote = z.object({ id: z.string(), code: z.string(), imageType: z.string().optional(), animated: z.boolean().optional() });
const bttvUser = z.object({ channelEmotes: z.array(bttvEmote).optional(), sharedEmotes: z.array(bttvEmote).optional() });

const word = /\S+/g;

export class EmoteService {
  private readonly channels = new Map<string, CachedSet>();
  private readonly globals: CachedSet = { byName: new Map(), freshUntil: 0, loading: null };
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly retryMs: number;
  private readonly sevenTvScheme: 'http:' | 'https:';
  private readonly bttvCdnUrl: string;

  constructor(private readonly options: EmoteServiceOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.retryMs = options.retryMs ?? 60_000;
    // 7TV hosts are protocol-relative (`//cdn.7tv.app/…`): https, unless the configured API is plain http (the emulator).
    this.sevenTvScheme = options.sevenTvApiUrl.startsWith('http:') ? 'http:' : 'https:';
    this.bttvCdnUrl = (options.bttvCdnUrl ?? defaultBttvCdn(options.bttvApiUrl)).replace(/\/$/, '');
  }

  private static key(channel: EmoteChannel): string {
    return `${channel.provider}:${channel.providerChannelId}`;
  }

  /** Third-party emote ranges in `text`, added to `existing` (which win on overlap); sorted by position. */
  annotate(channel: EmoteChannel, text: string, existing: ChatEmote[]): ChatEmote[] {
    const now = this.now();
    if (this.globals.freshUntil <= now) this.startGlobalLoad();
    const key = EmoteService.key(channel);
    let set = this.channels.get(key);
    if (!set || set.freshUntil <= now) set = this.startChannelLoad(channel, key);
    if (set.byName.size === 0 && this.globals.byName.size === 0) return existing;

    const added: ChatEmote[] = [];
    for (const match of text.matchAll(word)) {
      const name = match[0];
      const emote = set.byName.get(name) ?? this.globals.byName.get(name);
      if (!emote) continue;
      const start = match.index;
      const end = start + name.length;
      if (existing.some((e) => e.start < end && start < e.end)) continue;
      added.push({ start, end, name, id: emote.id, source: emote.source, url: emote.url });
    }
    if (added.length === 0) return existing;
    return [...existing, ...added].sort((a, b) => a.start - b.start);
  }

  /** A channel's own 7TV/BTTV emotes (loaded first if needed). */
  async channelEmotes(channel: EmoteChannel): Promise<ThirdPartyEmote[]> {
    await this.ensureChannel(channel);
    return [...(this.channels.get(EmoteService.key(channel))?.byName.values() ?? [])];
  }

  /** The 7TV and BTTV global emotes (loaded first if needed). */
  async globalEmotes(): Promise<ThirdPartyEmote[]> {
    await this.ensureGlobals();
    return [...this.globals.byName.values()];
  }

  /** Loads (or reloads when stale) a channel's sets and waits for them. */
  async ensureChannel(channel: EmoteChannel): Promise<void> {
    const key = EmoteService.key(channel);
    const set = this.channels.get(key);
    if (set && set.freshUntil > this.now()) return set.loading ?? undefined;
    await this.startChannelLoad(channel, key).loading;
  }

  async ensureGlobals(): Promise<void> {
    if (this.globals.freshUntil > this.now() && !this.globals.loading) return;
    this.startGlobalLoad();
    await this.globals.loading;
  }

  /** Forgets a channel's cached sets (e.g. after the channel disconnects). */
  forget(channel: EmoteChannel): void {
    this.channels.delete(EmoteService.key(channel));
  }

  private startChannelLoad(channel: EmoteChannel, key: string): CachedSet {
    let set = this.channels.get(key);
    if (!set) {
      set = { byName: new Map(), freshUntil: 0, loading: null };
      this.channels.set(key, set);
    }
    if (set.loading) return set;
    const target = set;
    target.loading = this.loadChannel(channel)
      .then((byName) => {
        target.byName = byName;
        target.freshUntil = this.now() + this.ttlMs;
      })
      .catch((error: unknown) => {
        this.options.log?.warn({ err: error, channel: key }, 'could not load third-party emotes');
        target.freshUntil = this.now() + this.retryMs;
      })
      .finally(() => {
        target.loading = null;
      });
    return target;
  }

  private startGlobalLoad(): void {
    if (this.globals.loading) return;
    this.globals.loading = this.loadGlobals()
      .then((byName) => {
        this.globals.byName = byName;
        this.globals.freshUntil = this.now() + this.ttlMs;
      })
      .catch((error: unknown) => {
        this.options.log?.warn({ err: error }, 'could not load global third-party emotes');
        this.globals.freshUntil = this.now() + this.retryMs;
      })
      .finally(() => {
        this.globals.loading = null;
      });
  }

  private async getJson(url: string): Promise<unknown> {
    const response = await this.fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`GET ${url} answered HTTP ${response.status}`);
    }
    return response.json();
  }

  private sevenTv(emotes: z.infer<typeof sevenTvEmote>[]): ThirdPartyEmote[] {
    const out: ThirdPartyEmote[] = [];
    for (const e of emotes) {
      const host = e.data?.host;
      if (!host) continue;
      const base = host.url.startsWith('//') ? `${this.sevenTvScheme}${host.url}` : host.url;
      const file = host.files?.find((f) => f.name === '1x.webp')?.name ?? host.files?.[0]?.name ?? '1x.webp';
      out.push({ id: e.id, name: e.name, source: '7tv', url: `${base.replace(/\/$/, '')}/${file}`, animated: e.data?.animated ?? false });
    }
    return out;
  }

  private bttv(emotes: z.infer<typeof bttvEmote>[]): ThirdPartyEmote[] {
    return emotes.map((e) => ({
      id: e.id,
      name: e.code,
      source: 'betterttv',
      url: `${this.bttvCdnUrl}/emote/${encodeURIComponent(e.id)}/1x`,
      animated: e.animated ?? e.imageType === 'gif',
    }));
  }

  private async loadChannel(channel: EmoteChannel): Promise<Map<string, ThirdPartyEmote>> {
    const id = encodeURIComponent(channel.providerChannelId);
    const seven = sevenTvPlatforms[channel.provider];
    const better = bttvPlatforms[channel.provider];
    const [sevenList, bttvList] = await Promise.all([
      seven ? this.getJson(`${this.options.sevenTvApiUrl.replace(/\/$/, '')}/users/${seven}/${id}`) : null,
      better ? this.getJson(`${this.options.bttvApiUrl.replace(/\/$/, '')}/cached/users/${better}/${id}`) : null,
    ]);
    const byName = new Map<string, ThirdPartyEmote>();
    // BTTV first so 7TV wins a name both define.
    if (bttvList !== null) {
      const user = bttvUser.parse(bttvList);
      for (const e of this.bttv([...(user.channelEmotes ?? []), ...(user.sharedEmotes ?? [])])) byName.set(e.name, e);
    }
    if (sevenList !== null) {
      const user = sevenTvUser.parse(sevenList);
      for (const e of this.sevenTv(user.emote_set?.emotes ?? [])) byName.set(e.name, e);
    }
    return byName;
  }

  private async loadGlobals(): Promise<Map<string, ThirdPartyEmote>> {
    const [sevenSet, bttvList] = await Promise.all([
      this.getJson(`${this.options.sevenTvApiUrl.replace(/\/$/, '')}/emote-sets/global`),
      this.getJson(`${this.options.bttvApiUrl.replace(/\/$/, '')}/cached/emotes/global`),
    ]);
    const byName = new Map<string, ThirdPartyEmote>();
    if (bttvList !== null) for (const e of this.bttv(z.array(bttvEmote).parse(bttvList))) byName.set(e.name, e);
    if (sevenSet !== null) for (const e of this.sevenTv(sevenTvSet.parse(sevenSet).emotes ?? [])) byName.set(e.name, e);
    return byName;
  }
}

/** BTTV's CDN for its API: the real one, or `/bttv-cdn` beside an emulator's `/bttv/3`. */
export function defaultBttvCdn(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === 'api.betterttv.net') return 'https://cdn.betterttv.net';
  return `${url.origin}${url.pathname.replace(/\/bttv\/3\/?$/, '/bttv-cdn').replace(/\/3\/?$/, '')}`;
}
