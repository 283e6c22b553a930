/**
 * Twitch behind the platform port, with @twurple: EventSub over WebSocket, one connection per Twitch account
 * shared by every Greenroom channel backed by it (eventsub-share.ts), and Helix (ApiClient) for actions. Tokens
 * come from Greenroom's token sources through TokenSourceAuthProvider.
 */
import { ApiClient, ChatMessageDroppedError } from '@twurple/api';
import { providers } from '@greenroom/contracts/providers';
import { AppError, badRequest, unsupported } from '../../lib/errors';
import { OwnBans } from '../own-actions';
import type { PlatformEndpoints } from '../endpoints';
import { PlatformError, reconnectNeeded } from '../platform-error';
import type {
  AdsFacet,
  BanInput,
  BanResult,
  Category,
  ChannelConnectionContext,
  ChannelInfoFacet,
  ChatFacet,
  Chatter,
  ChattersFacet,
  CommercialResult,
  ModerationFacet,
  PlatformAdapter,
  SendResult,
  StreamInfo,
  StreamInfoFacet,
  TokenSource,
} from '../port';
import { isMissingScope, parseTwitchError, twitchMessage } from './twitch-errors';
import { TokenSourceAuthProvider } from './auth-provider';
import { EventSubPool, httpErrorOf } from './eventsub-share';

const MAX_MESSAGE_LENGTH = 500;
const MAX_TIMEOUT_SECONDS = providers.twitch.maxTimeoutSeconds ?? 1_209_600;
const MAX_REASON_LENGTH = providers.twitch.banReasonMaxLength ?? 500;
const MAX_TITLE_LENGTH = providers.twitch.streamTitleMaxLength ?? 140;
const droppedPrefix = /^.*? dropped: /;

/** Maps a Helix failure to the one PlatformError; a missing scope marks the credential for reconnection. */
async function mapError(error: unknown, token: TokenSource | null): Promise<AppError | PlatformError> {
  if (error instanceof AppError || error instanceof PlatformError) return error;
  const http = httpErrorOf(error);
  if (!http) return new PlatformError('temporary', 'twitch', 'Twitch could not be reached, try again.', { cause: error });
  const failure = { status: http.statusCode, body: http.body };
  if (isMissingScope(failure) && token) await token.markReauthRequired?.(twitchMessage(http.body));
  return parseTwitchError(failure, { cause: error });
}

export interface TwitchAdapterDeps {
  endpoints: PlatformEndpoints;
  /** EventSub reconnect backoff (tests shorten it). */
  backoff?: { baseMs?: number; maxMs?: number };
  /** The bans Greenroom is making (shared with the cluster so another instance's bans are recognised too). */
  ownBans?: OwnBans;
}

type ActionsContext = Omit<ChannelConnectionContext, 'emit' | 'setHealth' | 'signal'>;

export function createTwitchAdapter(deps: TwitchAdapterDeps): PlatformAdapter {
  const endpoints = deps.endpoints.twitch;
  /** One ApiClient (with its Helix rate limiter) per broadcaster credential + bot. */
  const clients = new WeakMap<TokenSource, { bot: TokenSource | null; api: ApiClient }>();

  const apiFor = (ctx: ActionsContext): ApiClient => {
    const cached = clients.get(ctx.broadcaster);
    if (cached && cached.bot === ctx.bot) return cached.api;
    const authProvider = new TokenSourceAuthProvider(endpoints.clientId, [ctx.broadcaster, ctx.bot]);
    const api = new ApiClient({ authProvider, logger: { minLevel: 'critical' } });
    clients.set(ctx.broadcaster, { bot: ctx.bot, api });
    return api;
  };

  const ownBans = deps.ownBans ?? new OwnBans();
  const eventSub = new EventSubPool({
    clientId: endpoints.clientId,
    wsUrl: endpoints.mockApiPort === null ? endpoints.eventSubWsUrl : null,
    emoteCdnUrl: endpoints.emoteCdnUrl,
    ownBans,
    apiFor,
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
  });

  return {
    provider: 'twitch',
    connect: (ctx) => eventSub.join(ctx),
    actions(ctx) {
      const api = apiFor(ctx);
      return {
        chat: new TwitchChat(ctx, api),
        moderation: new TwitchModeration(ctx, api, ownBans),
        streamInfo: new TwitchStreamInfo(ctx, api),
        chatters: new TwitchChatters(ctx, api),
        channelInfo: new TwitchChannelInfo(ctx, api),
        ads: new TwitchAds(ctx, api),
      };
    },
  };
}

/** Base of the Twitch facets: the connection context and its Helix client. */
abstract class TwitchFacet {
  constructor(
    protected readonly ctx: ActionsContext,
    protected readonly api: ApiClient,
  ) {}

  protected get broadcasterId(): string {
    return this.ctx.providerChannelId;
  }
}

class TwitchChat extends TwitchFacet implements ChatFacet {
  async sendMessage(input: { text: string; replyToProviderMessageId?: string; as: 'broadcaster' | 'bot' }): Promise<SendResult> {
    const sender = input.as === 'bot' ? this.ctx.bot : this.ctx.broadcaster;
    if (!sender) throw unsupported('No bot account is connected for this Twitch channel.');
    if ([...input.text].length > MAX_MESSAGE_LENGTH) throw badRequest(`Twitch messages are limited to ${MAX_MESSAGE_LENGTH} characters.`);
    try {
      const sent = await this.api.asUser(sender.providerUserId, (c) =>
        c.chat.sendChatMessage(
          this.broadcasterId,
          input.text,
          input.replyToProviderMessageId ? { replyParentMessageId: input.replyToProviderMessageId } : undefined,
        ),
      );
      return { providerMessageId: sent.id };
    } catch (error) {
      if (error instanceof ChatMessageDroppedError) {
        const reason = error.message.replace(droppedPrefix, '');
        throw new PlatformError('refused', 'twitch', `Twitch did not send the message: ${reason}${error.code ? ` (${error.code})` : ''}`, {
          reason: error.code ?? null,
        });
      }
      throw await mapError(error, sender);
    }
  }
}

class TwitchModeration extends TwitchFacet implements ModerationFacet {
  constructor(
    ctx: ActionsContext,
    api: ApiClient,
    private readonly ownBans: OwnBans,
  ) {
    super(ctx, api);
  }

  async ban(input: BanInput): Promise<BanResult> {
    if (
      input.durationSeconds !== undefined &&
      (!Number.isInteger(input.durationSeconds) || input.durationSeconds < 1 || input.durationSeconds > MAX_TIMEOUT_SECONDS)
    ) {
      throw badRequest(`Twitch timeouts last 1 to ${MAX_TIMEOUT_SECONDS} seconds.`);
    }
    if (input.reason !== undefined && [...input.reason].length > MAX_REASON_LENGTH)
      throw badRequest(`Twitch ban reasons are limited to ${MAX_REASON_LENGTH} characters.`);
    this.ownBans.mark(this.broadcasterId, input.providerViewerId);
    let bans: { creationDate: Date; expiryDate: Date | null }[];
    try {
      bans = await this.api.moderation.banUser(this.broadcasterId, {
        user: input.providerViewerId,
        ...(input.durationSeconds !== undefined ? { duration: input.durationSeconds } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
      });
    } catch (error) {
      this.ownBans.forget(this.broadcasterId, input.providerViewerId);
      throw await mapError(error, this.ctx.broadcaster);
    }
    // Helix answers with created_at and end_time (null for a ban): the timeout Twitch applied.
    const ban = bans[0];
    if (input.durationSeconds === undefined || !ban?.expiryDate) return { durationSeconds: input.durationSeconds ?? null };
    return { durationSeconds: Math.max(1, Math.round((ban.expiryDate.getTime() - ban.creationDate.getTime()) / 1000)) };
  }

  async unban(input: { providerViewerId: string }): Promise<void> {
    try {
      await this.api.moderation.unbanUser(this.broadcasterId, input.providerViewerId);
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async deleteMessage(input: { providerMessageId: string }): Promise<void> {
    try {
      await this.api.moderation.deleteChatMessages(this.broadcasterId, input.providerMessageId);
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}

/** Get Chatters as the broadcaster (a moderator of their own chat; scope `moderator:read:chatters`), every page of 1,000. */
class TwitchChatters extends TwitchFacet implements ChattersFacet {
  async list(): Promise<Chatter[]> {
    try {
      const all = await this.api.asUser(this.ctx.broadcaster.providerUserId, (c) =>
        c.chat.getChattersPaginated(this.broadcasterId).getAll(),
      );
      return all.map((c) => ({ providerUserId: c.userId, login: c.userName, displayName: c.userDisplayName }));
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}

/** Get Channel Followers' `total` (any user token gets it; the list would need `moderator:read:followers`). */
class TwitchChannelInfo extends TwitchFacet implements ChannelInfoFacet {
  async followerCount(): Promise<number> {
    try {
      return await this.api.channels.getChannelFollowerCount(this.broadcasterId);
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}

const COMMERCIAL_SCOPE = 'channel:edit:commercial';

/**
 * Start Commercial: only the broadcaster's own token may (not an editor's or a moderator's), only partners and
 * affiliates, only while live; Twitch answers the length it serves and `retry_after`, and refuses another ad before
 * that with 429. twurple's `startChannelCommercial` drops the answer, so the call is made through `callApi`.
 */
class TwitchAds extends TwitchFacet implements AdsFacet {
  async startCommercial(lengthSeconds: number): Promise<CommercialResult> {
    // A connection made before Greenroom asked for this scope: say so, without marking the whole connection broken.
    if (!this.ctx.broadcaster.scopes.includes(COMMERCIAL_SCOPE))
      throw reconnectNeeded('twitch', 'reconnect it on the Platforms page to let Greenroom run ads.', 'insufficient_scope');
    try {
      const answer = await this.api.callApi<{ data: { length: number; message: string; retry_after: number }[] }>({
        type: 'helix',
        url: 'channels/commercial',
        method: 'POST',
        userId: this.broadcasterId,
        scopes: [COMMERCIAL_SCOPE],
        jsonBody: { broadcaster_id: this.broadcasterId, length: lengthSeconds },
      });
      const row = answer.data[0];
      if (!row) throw new PlatformError('temporary', 'twitch', 'Twitch did not say whether the ad runs.');
      return { lengthSeconds: row.length, retryAfterSeconds: row.retry_after, message: row.message };
    } catch (error) {
      // Twitch says 429 for an ad asked before the last one's `retry_after`: a refusal with its own reason, not a rate limit.
      const http = httpErrorOf(error);
      if (http?.statusCode === 429 && /commercial/i.test(twitchMessage(http.body)))
        throw new PlatformError('rate_limited', 'twitch', 'Twitch refused: the next ad can run once the last one’s cooldown is over.', {
          reason: 'commercial_cooldown',
          cause: error,
        });
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}

class TwitchStreamInfo extends TwitchFacet implements StreamInfoFacet {
  async get(): Promise<StreamInfo> {
    try {
      const [channel, stream] = await Promise.all([
        this.api.channels.getChannelInfoById(this.broadcasterId),
        this.api.streams.getStreamByUserId(this.broadcasterId),
      ]);
      if (!channel) throw new PlatformError('not_found', 'twitch', 'Twitch does not know this channel any more.');
      return {
        title: channel.title,
        category: channel.gameId ? { id: channel.gameId, name: channel.gameName } : null,
        isLive: stream !== null,
        viewerCount: stream?.viewers ?? null,
        liveStreamId: stream?.id ?? null,
      };
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async update(input: { title?: string; categoryId?: string }): Promise<void> {
    if (input.title !== undefined && [...input.title].length > MAX_TITLE_LENGTH)
      throw badRequest(`Twitch titles are limited to ${MAX_TITLE_LENGTH} characters.`);
    try {
      await this.api.channels.updateChannelInfo(this.broadcasterId, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.categoryId !== undefined ? { gameId: input.categoryId } : {}),
      });
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }

  async searchCategories(query: string): Promise<Category[]> {
    try {
      const page = await this.api.search.searchCategories(query, { limit: 20 });
      return page.data.map((g) => ({ id: g.id, name: g.name, imageUrl: g.getBoxArtUrl(52, 72) }));
    } catch (error) {
      throw await mapError(error, this.ctx.broadcaster);
    }
  }
}
