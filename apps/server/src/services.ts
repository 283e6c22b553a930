import { SYSTEM_BOT_HASH_KEY } from '@greenroom/contracts/api/system-bots';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { TokenCipher } from './lib/crypto';
import { AccessEvents } from './lib/access-events';
import type { BusEvent, EventBus } from './lib/event-bus';
import { singleInstance, type Cluster } from './cluster';
import { createLogger } from './lib/logging';
import { persistentSecret } from './lib/secrets';
import { ActivityService } from './modules/activity';
import { AuditLogService } from './modules/audit';
import { OAuthFlows, SessionService } from './modules/auth';
import { ChannelProviderService } from './modules/channel-providers';
import { ChannelService } from './modules/channels';
import { createChatServices, type ChatServices } from './modules/chat';
import { ChannelEmotesService } from './modules/emotes';
import { ChatLogModerationNames, ModerationService } from './modules/moderation';
import { createPublicChatServices, type PublicChatServices } from './modules/public-chat';
import { InviteService, StaffService } from './modules/staff';
import { StatsJobs, StatsQueries, StatsRollup } from './modules/stats';
import { DiscordJob, DiscordService, DiscordWebhookClient } from './modules/discord';
import { StreamInfoService } from './modules/stream-info';
import { SystemBotService } from './modules/system-bots';
import { ConnectService, UserService } from './modules/user';
import { DbViewerRepository, ViewerCardService } from './modules/viewers';
import { DbWebhookDeliveryStore } from './modules/webhooks';
import { createWidgetServices, type WidgetServices } from './modules/widgets';
import { QUEUE_WIDGET_ENTRIES_MAX } from '@greenroom/contracts/api/widgets';
import { channelLevel } from './plugins/auth';
import type { PlatformEndpoints } from './platforms/endpoints';
import { KickClient } from './platforms/kick/kick-client';
import { KickWebhookReceiver } from './platforms/kick/kick-webhook-receiver';
import { EmoteService } from './platforms/emotes/emote-service';
import { createTokenRevoker } from './platforms/oauth-client';
import { ConnectionManager } from './platforms/connection-manager';
import { IngestPipeline } from './pipeline/ingest';
import { createPlatformAdapters, type PlatformAdapterOptions } from './platforms/registry';
import { SendQueue } from './platforms/send-queue';
import { OwnBans } from './platforms/own-actions';
import { CredentialRepository, TokenSources } from './platforms/tokens';
import { YoutubeQuotaMeter } from './platforms/youtube/youtube-quota';
import { connectionsPlatform, createChatbot, type Chatbot } from './modules/chatbot';
import { and, eq, isNotNull } from 'drizzle-orm';
import { providers, type ChannelProviderId } from '@greenroom/contracts/providers';
import { channelProviders as channelProvidersTable, systemBots as systemBotsTable } from './db/schema';
import { createPoints, EARN_CONCURRENCY_POSTGRES, type BotChat, type Points } from './modules/points';
import { DbGameSettingsRepository, GamesService, gamesBuiltins } from './modules/games';
import { createGiveaways, type Giveaways } from './modules/giveaways';
import { QueueRepository, QueueService, queueBuiltins } from './modules/queues';
import { cryptoRandom } from './lib/random';
import { WatchService } from './modules/watch';
import { AdsService } from './modules/ads';
import {
  NowPlayingJob,
  NowPlayingService,
  SongRequestJob,
  SongRequestRepository,
  SongRequestService,
  spotifyBuiltins,
} from './modules/spotify';
import { SpotifyClient } from './platforms/spotify/spotify-client';

/**
 * Everything the app needs, built once at start (no module-level singletons). This is the composition root:
 * each module's routes take only the part they declare (`<feature>RouteDeps`), never this whole object.
 */
export interface AppServices {
  config: Config;
  db: Db;
  database: Database;
  publicUrl: string;
  emulatorUrl: string | null;
  endpoints: PlatformEndpoints;
  cipher: TokenCipher;
  cookieSecret: string;
  secureCookies: boolean;
  /** The one bus, carrying the event union of `@greenroom/contracts/bus` (across instances through Redis in a cluster). */
  bus: EventBus;
  /** This instance alone, or one of several: channel ownership, shared health, commands to the holder. */
  cluster: Cluster;
  sessions: SessionService;
  flows: OAuthFlows;
  users: UserService;
  /** Which OAuth flow a "Connect" button starts. */
  connect: ConnectService;
  channels: ChannelService;
  audit: AuditLogService;
  staff: StaffService;
  invites: InviteService;
  systemBots: SystemBotService;
  /** Verifies and routes Kick webhooks to the Kick connections registered in it. */
  kickWebhooks: KickWebhookReceiver;
  /** 7TV/BTTV emote sets per channel (annotates ingested chat). */
  emotes: EmoteService;
  /** YouTube Data API units spent today by this Greenroom's Google project. */
  youtubeQuota: YoutubeQuotaMeter;
  /** A channel's 7TV/BTTV emotes for autocomplete. */
  channelEmotes: ChannelEmotesService;
  /** Platform layer: token sources, live connections, channel providers, moderation. */
  tokens: TokenSources;
  /**
   * The chat pipeline: every platform event and Greenroom's own chat events → stages → group commit
   * → bus → effects. Features add stages and effect handlers here when they are built.
   */
  ingest: IngestPipeline;
  connections: ConnectionManager;
  channelProviders: ChannelProviderService;
  moderation: ModerationService;
  /** Stream title and category, per connection and on every platform at once (routes, chatbot, dashboard). */
  streamInfo: StreamInfoService;
  /** Stats rollups (jobs) and their reads (the stats page, the dashboard). */
  stats: { jobs: StatsJobs; queries: StatsQueries };
  /** Discord go-live announcements: settings and the job that posts and edits them. */
  discord: { service: DiscordService; job: DiscordJob };
  /** Unified chat: retention, staff fan-out hub, history, sending. */
  chat: ChatServices;
  activity: ActivityService;
  viewerCards: ViewerCardService;
  /** The public chat popout: its fan-out hub, connection limit and recent lines. */
  publicChat: PublicChatServices;
  /** The public watch page's channel lookup (players, live state, latest stream). */
  watch: WatchService;
  /** Ad breaks ("Run an ad"). */
  ads: AdsService;
  /** What the channel's Spotify plays (`!song`, widgets) and the job publishing `spotify.now_playing` while live. */
  spotify: { nowPlaying: NowPlayingService; job: NowPlayingJob; songRequests: SongRequestService; requestJob: SongRequestJob };
  /** Commands, timers, spam filters, quotes, command templates: services, pipeline stages and effect handlers. */
  chatbot: Chatbot;
  /** Stream widgets: the editor's service, the widget pages' fan-out hub and their per-address connection limit. */
  widgets: WidgetServices;
  /** Loyalty points: wallets across platforms, ledger, earning (stage, effect, watch time), commands, `!link`. */
  points: Points;
  /** Slots and roulette. */
  games: GamesService;
  /** Giveaways: service, chat stage, effect handlers, timers. */
  giveaways: Giveaways;
  /** The viewer queue. */
  queues: QueueService;
}

export function publicUrlOf(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

export function createServices(input: {
  config: Config;
  database: Database;
  endpoints: PlatformEndpoints;
  emulatorUrl: string | null;
  /** Adapter timing overrides (tests). */
  platformOptions?: PlatformAdapterOptions;
  /** Several instances (main.ts joins one when REDIS_URL is set); default: this instance alone. */
  cluster?: Cluster;
}): AppServices {
  const { config, database, endpoints } = input;
  const db = database.db;
  const publicUrl = publicUrlOf(config);
  const cipher = new TokenCipher(persistentSecret(config.ENCRYPTION_KEY, config.DATA_DIR, 'encryption-key', 32));
  const cookieSecret = persistentSecret(config.COOKIE_SECRET, config.DATA_DIR, 'cookie-secret', 48);
  const cluster = input.cluster ?? singleInstance(createLogger(config.LOG_LEVEL, 'bus'));
  const bus = cluster.bus;
  const access = new AccessEvents(bus);
  const sessions = new SessionService(db, config.SESSION_TTL_DAYS, config.admins, access);
  const flows = new OAuthFlows(db, endpoints, publicUrl);
  const audit = new AuditLogService(db);
  let channelProviders: ChannelProviderService | null = null;
  const disconnectPlatforms = async (channelId: string, actorUserId: string | null): Promise<void> => {
    await channelProviders?.disconnectAll(channelId, actorUserId);
  };
  const users = new UserService(db, cipher, { disconnectPlatforms, access });
  const channels = new ChannelService(db, { audit, disconnectPlatforms, access });

  flows.on('signin', async (flow) => {
    const user = await users.signIn(flow.provider, flow.identity, flow.tokens);
    const session = await sessions.create(user.id);
    return {
      access_token: session.token,
      expires_at: session.expiresAt.toISOString(),
      redirect_to: `/sign-in/success?next=${encodeURIComponent(flow.redirectTo)}`,
    };
  });
  flows.on('link', async (flow) => {
    if (!flow.userId) throw new Error('link flow without a user');
    const row = await users.link(flow.userId, flow.provider, flow.identity, flow.tokens);
    return { redirect_to: `${flow.redirectTo}#user_provider_id=${encodeURIComponent(row.id)}` };
  });
  flows.on('system_bot', async (flow) => {
    await systemBots.connect(flow.provider, flow.identity, flow.tokens);
    return { redirect_to: `${flow.redirectTo}#${SYSTEM_BOT_HASH_KEY}=${encodeURIComponent(flow.provider)}` };
  });

  const kickWebhooks = new KickWebhookReceiver({
    client: new KickClient({ apiUrl: endpoints.kick.apiUrl, apiV2Url: endpoints.kick.apiV2Url }),
    store: new DbWebhookDeliveryStore(db),
    // Until the connection manager exists every delivery waits (answered 503: Kick delivers it again).
    isStored: async (broadcasterUserId) => (connections ? connections.isStored('kick', broadcasterUserId) : true),
  });
  const platformLog = createLogger(config.LOG_LEVEL, 'platforms');
  const revoke = createTokenRevoker(endpoints, platformLog);
  const systemBots = new SystemBotService({ db, cipher, revoke, log: platformLog });
  const emotes = new EmoteService({ sevenTvApiUrl: endpoints.sevenTv.apiUrl, bttvApiUrl: endpoints.bttv.apiUrl, log: platformLog });
  const youtubeQuota = new YoutubeQuotaMeter({
    db,
    project: endpoints.youtube.clientId,
    limit: config.YOUTUBE_DAILY_QUOTA,
    onError: (error) => platformLog.warn({ err: error }, 'counting YouTube quota failed'),
  });
  let connections: ConnectionManager | null = null;
  // Greenroom's own sends and bans, recognised when their echo arrives (on whichever instance holds the channel).
  const ownBans = { twitch: new OwnBans(), kick: new OwnBans() };
  const chatLog = createLogger(config.LOG_LEVEL, 'chat');
  const ingest = new IngestPipeline({
    db,
    bus,
    log: chatLog,
    emotes,
    writer: { holdRows: config.CHAT_HOLD_ROWS },
    // With other instances, another instance's effect claims are settled only once no live run can hold them.
    outbox: { alone: cluster.status().mode === 'single' },
  });
  cluster.shareEchoes({ self: ingest.self, ownBans });
  // Chat sends go through the connection manager.
  const chat = createChatServices({
    db,
    bus,
    retentionDays: config.CHAT_RETENTION_DAYS,
    log: chatLog,
    actions: () => connections,
    audit,
  });
  const tokens = new TokenSources({
    repository: new CredentialRepository(db, cipher),
    endpoints,
    log: platformLog,
    ...(cluster.lock ? { lock: cluster.lock } : {}),
    onReauthRequired: (ref, detail) => {
      // The broadcaster's token is refused for good: the live connection cannot work either.
      if (ref.kind === 'broadcaster') connections?.reauthRequired(ref.channelProviderId, detail);
      const done =
        ref.kind === 'system_bot'
          ? channelProviders?.publishSystemBotChanged(ref.provider)
          : channelProviders?.publishUpdated(ref.channelProviderId);
      void done?.catch((error: unknown) => platformLog.warn({ err: error }, 'publishing a provider update failed'));
    },
  });
  connections = new ConnectionManager({
    db,
    tokens,
    ingest,
    sendQueue: new SendQueue(cluster.sendWindow ? { shared: cluster.sendWindow } : {}),
    adapters: createPlatformAdapters({
      endpoints,
      kickWebhooks,
      youtubeQuota,
      ownBans,
      ...(input.platformOptions ? { options: input.platformOptions } : {}),
    }),
    log: platformLog,
    owns: (channelId) => cluster.owns(channelId),
    ...(cluster.once ? { once: cluster.once } : {}),
    ...(input.platformOptions?.validateEveryMs ? { validateEveryMs: input.platformOptions.validateEveryMs } : {}),
  });
  const providerService = new ChannelProviderService({
    db,
    cipher,
    bus,
    manager: cluster.attach(connections, kickWebhooks),
    audit,
    revoke,
  });
  channelProviders = providerService;
  let discordJob: DiscordJob | null = null;
  const statsRollup = new StatsRollup(db);
  const statsJobs = new StatsJobs(statsRollup, {
    log: createLogger(config.LOG_LEVEL, 'stats'),
    // Several instances: each samples the viewers of the channels it holds.
    held: () => (cluster.status().mode === 'single' ? null : cluster.ownership.held),
  });
  connections.onChange = (change) => {
    statsJobs.connectionChanged();
    discordJob?.changed();
    cluster.shareHealth(change.channelProviderId, connections?.health(change.channelProviderId) ?? null);
    void providerService
      .publishUpdated(change.channelProviderId)
      .catch((error: unknown) => platformLog.warn({ err: error }, 'publishing a provider update failed'));
  };
  // A connected or removed system bot: running channels drop its cached token and reconnect with the new one.
  systemBots.onChanged = async (provider) => {
    await connections?.systemBotChanged(provider);
    await providerService.publishSystemBotChanged(provider);
  };
  flows.on('channel', (flow) => providerService.connect(flow));

  const streamInfo = new StreamInfoService({ connections, audit });
  const discordLog = createLogger(config.LOG_LEVEL, 'discord');
  const discordService = new DiscordService({
    db,
    cipher,
    webhooks: new DiscordWebhookClient(endpoints.discord.apiUrl),
    publicUrl,
    streamInfo: (id) => chatbotPlatform.streamInfo(id),
    owns: (channelId) => cluster.owns(channelId),
    log: discordLog,
  });
  discordJob = new DiscordJob(discordService, discordLog);
  const chatbotLog = createLogger(config.LOG_LEVEL, 'chatbot');
  const chatbotPlatform = connectionsPlatform({
    db,
    source: () => connections,
    streamInfo,
    ingest: (source, event) => ingest.submit(source, [event]),
    log: chatbotLog,
  });
  const chatbot = createChatbot({
    db,
    platform: chatbotPlatform,
    watchStreams: (channelId, onStatus) =>
      bus.subscribe(`channel:${channelId}`, (event) => {
        if (event.type === 'stream.status') onStatus(event.data);
      }),
    log: chatbotLog,
    owns: (channelId) => cluster.owns(channelId),
    onCommandUsed: (use) => statsRollup.commandUsed(use),
  });
  // Loyalty: points (wallets across platforms), slots and roulette, giveaways, the viewer queue. Their chat
  // commands are chatbot built-ins; their stages and effect handlers join the chat pipeline's.
  const loyaltyLog = createLogger(config.LOG_LEVEL, 'loyalty');
  const botChat: BotChat = {
    async say(channelId, text, only) {
      const list = (await chatbotPlatform.connections(channelId)).filter(
        (c) => providers[c.provider].chatWrite && (!only || c.provider === only),
      );
      // An announcement is best effort: a platform that cannot take it (disconnected, refused) is logged, and what was
      // announced (an entry, a draw, a claim) stands.
      await Promise.all(
        list.map(async (c) => {
          const max = providers[c.provider].chatMessageMaxLength ?? 500;
          const chars = [...text];
          try {
            await chatbotPlatform.send(c.id, { text: chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…` });
          } catch (error) {
            loyaltyLog.warn({ channelId, provider: c.provider, err: error }, 'loyalty announcement not sent');
          }
        }),
      );
    },
  };
  const points = createPoints({
    db,
    earnConcurrency: database.kind === 'postgres' ? EARN_CONCURRENCY_POSTGRES : 1,
    audit,
    chat: botChat,
    watch: (channelId, on) =>
      bus.subscribe(`channel:${channelId}`, (event) => {
        if (event.type === 'stream.status') on.status(event.data);
        else if (event.type === 'chat.moderation') on.moderation(event.data);
      }),
    liveConnections: async () =>
      (
        await db
          .select({ id: channelProvidersTable.id, channelId: channelProvidersTable.channelId, provider: channelProvidersTable.provider })
          .from(channelProvidersTable)
          .where(eq(channelProvidersTable.isLive, true))
      )
        // Watch time is paid where the channel's chatters are counted: the instance holding it.
        .filter((r) => r.provider in providers && providers[r.provider as ChannelProviderId].chatRead && cluster.owns(r.channelId))
        .map((r) => ({ channelId: r.channelId, channelProviderId: r.id, provider: r.provider as ChannelProviderId })),
    chatters: async (c) => {
      const facet = (await connections.actions(c.channelProviderId)).actions.chatters;
      return facet ? facet.list() : null;
    },
    botIdentities: async () => {
      const own = await db
        .select({ provider: channelProvidersTable.provider, id: channelProvidersTable.botProviderUserId })
        .from(channelProvidersTable)
        .where(and(isNotNull(channelProvidersTable.botProviderUserId)));
      const system = await db.select({ provider: systemBotsTable.provider, id: systemBotsTable.providerUserId }).from(systemBotsTable);
      return [...own, ...system].map((r) => ({ provider: r.provider as ChannelProviderId, providerUserId: r.id! }));
    },
    log: loyaltyLog,
  });
  const games = new GamesService({
    repo: new DbGameSettingsRepository(db),
    points: {
      service: points.service,
      play: (op) => points.repo.play(op),
      channel: (channelId) => points.state.get(channelId),
    },
    audit,
    random: cryptoRandom,
  });
  const publish = (channelId: string, event: BusEvent) => bus.publish(`channel:${channelId}`, event);
  const giveaways = createGiveaways({
    db,
    ledger: points.repo.ledgerOps,
    points: {
      walletOf: (channelId, identity) => points.service.walletOf(channelId, identity),
      identitiesOf: async (walletIds) => {
        const found = await points.repo.identities(walletIds);
        return new Map([...found].map(([id, list]) => [id, list.map((i) => ({ provider: i.provider, providerUserId: i.providerUserId }))]));
      },
      pointsName: (channelId) => points.service.pointsName(channelId),
    },
    isBot: (channelId, m) => points.state.get(channelId).bots.isBot(m.provider, m.author.provider_user_id, m.author.login),
    chat: botChat,
    audit,
    publish,
    log: loyaltyLog,
  });
  const queues = new QueueService({
    repo: new QueueRepository(db),
    walletOf: (channelId, identity) => points.service.walletOf(channelId, identity),
    chat: botChat,
    audit,
    publish,
    random: cryptoRandom,
    log: loyaltyLog,
  });
  const queueRepo = new QueueRepository(db);
  points.repo.onWalletsMerged((tx, m) => giveaways.repo.walletsMerged(tx, m));
  points.repo.onWalletsMerged((tx, m) => queueRepo.walletsMerged(tx, m));
  const spotifyLog = createLogger(config.LOG_LEVEL, 'spotify');
  const nowPlaying = new NowPlayingService({
    db,
    tokens,
    client: new SpotifyClient({ apiUrl: endpoints.spotify.apiUrl }),
    log: spotifyLog,
  });
  const nowPlayingJob = new NowPlayingJob({ db, bus, nowPlaying, log: spotifyLog });
  const songRequestRepo = new SongRequestRepository(db, points.repo.ledgerOps);
  points.repo.onWalletsMerged((tx, m) => songRequestRepo.walletsMerged(tx, m));
  const songRequests = new SongRequestService({
    db,
    tokens,
    repo: songRequestRepo,
    client: new SpotifyClient({ apiUrl: endpoints.spotify.apiUrl }),
    points: {
      enabled: (channelId) => points.service.settings(channelId).enabled,
      pointsName: (channelId) => points.service.pointsName(channelId),
      walletOf: (channelId, identity) => points.service.walletOf(channelId, identity),
    },
    bus,
    audit,
    forgetNowPlaying: (channelId) => nowPlaying.forget(channelId),
    log: spotifyLog,
  });
  const songRequestJob = new SongRequestJob({ repo: songRequestRepo, service: songRequests, log: spotifyLog });
  for (const b of [...points.builtins, ...gamesBuiltins(games), ...queueBuiltins(queues), ...spotifyBuiltins(nowPlaying, songRequests)])
    chatbot.builtins.register(b);
  // The bot's spam filters (moderation phase) and commands (command phase) run in the chat pipeline; their
  // platform actions and replies are effects, run once after the message is committed.
  for (const stage of chatbot.stages) ingest.addStage(stage);
  for (const handler of chatbot.effectHandlers) ingest.addEffectHandler(handler);
  // The loyalty stages (message points, giveaway entries and winners' claims) and their effects join the pipeline
  // after the chatbot's; the loyalty commands run as chatbot built-ins.
  for (const stage of [...points.stages, ...giveaways.stages]) ingest.addStage(stage);
  for (const handler of [...points.effectHandlers, ...giveaways.effectHandlers]) ingest.addEffectHandler(handler);
  // A new channel starts with the default commands and the operators' enabled templates (same transaction).
  channels.onCreated((tx, channelId) => chatbot.commands.seed(tx, channelId));
  flows.on('channel_bot', (flow) => providerService.connectBot(flow));
  const widgets = createWidgetServices({
    db,
    cipher,
    bus,
    chat: chat.queries,
    loyalty: {
      giveaways: async (channelId) => (await giveaways.service.list(channelId, { per_page: 10 })).records,
      queues: (channelId) => queues.list(channelId),
      queueDetail: (channelId, queueId) => queues.detail(channelId, queueId, QUEUE_WIDGET_ENTRIES_MAX),
    },
    spotify: { nowPlaying: (channelId) => nowPlaying.get(channelId) },
    ...(cluster.socketCaps ? { sharedCaps: cluster.socketCaps } : {}),
  });

  return {
    config,
    db,
    database,
    publicUrl,
    emulatorUrl: input.emulatorUrl,
    endpoints,
    cipher,
    cookieSecret,
    secureCookies: publicUrl.startsWith('https://'),
    bus,
    cluster,
    sessions,
    flows,
    users,
    connect: new ConnectService({ flows, channelLevel: (channelId, user) => channelLevel(db, channelId, user) }),
    channels,
    audit,
    staff: new StaffService(db, audit, access),
    invites: new InviteService(db, cipher, audit),
    systemBots,
    kickWebhooks,
    youtubeQuota,
    emotes,
    channelEmotes: new ChannelEmotesService(db, emotes),
    tokens,
    ingest,
    connections,
    channelProviders: providerService,
    moderation: new ModerationService({ connections, ingest, audit, names: new ChatLogModerationNames(db) }),
    streamInfo,
    stats: { jobs: statsJobs, queries: new StatsQueries(db) },
    discord: { service: discordService, job: discordJob },
    chat,
    activity: new ActivityService(db, (channelId, activity) => widgets.service.replayActivity(channelId, activity)),
    viewerCards: new ViewerCardService(new DbViewerRepository(db)),
    publicChat: createPublicChatServices({
      db,
      bus,
      queries: chat.queries,
      ...(cluster.socketCaps ? { sharedCaps: cluster.socketCaps } : {}),
    }),
    watch: new WatchService({ db, streamInfo }),
    ads: new AdsService({ connections, audit }),
    spotify: { nowPlaying, job: nowPlayingJob, songRequests, requestJob: songRequestJob },
    chatbot,
    widgets,
    points,
    games,
    giveaways,
    queues,
  };
}
