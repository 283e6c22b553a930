/**
 * Song requests: `!sr <search or link>` puts a Spotify track in the streamer's Spotify queue, within the channel's
 * rules (who may request, cost in points, longest track, blocked tracks, requests per viewer). The request queue page
 * lists them, skips the playing track and removes waiting ones.
 *
 * Spotify's Web API can add to a queue and skip, but cannot take a track out of the queue: a request removed while
 * it waits keeps its place in Spotify's queue, and `sync` skips it when it starts playing. `sync` also follows the
 * player (queued → playing → played) for the page; `SongRequestJob` runs it every few seconds for channels with
 * requests to follow.
 */
import { accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';
import { channelTopic } from '@greenroom/contracts/bus';
import {
  type SongRequest,
  type SongRequestList,
  type SongRequestSettings,
  type SongRequestSettingsBody,
  songRequestSettingsSchema,
} from '@greenroom/contracts/api/spotify';
import { AppError, notFound } from '../../lib/errors';
import type { EventBus } from '../../lib/event-bus';
import type { AuditRecorder } from '../audit';
import { isReconnectNeeded, PlatformError } from '../../platforms/platform-error';
import type { TokenSource } from '../../platforms/port';
import { spotifyTrackUri, type SpotifyClient } from '../../platforms/spotify/spotify-client';
import { formatPoints, identityOf, type ChatCaller } from '../points';
import type { IdentityInput } from '../points';
import { spotifyTokenOf, toTrackDto, type SpotifyAccessDeps } from './now-playing';
import type { SongRequestRepository, SongRequestRow } from './song-request-repository';

/** "m:ss" of a length in milliseconds. */
export const mmss = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** A request still `pending` this long is given up (its chat effect no longer retries) and refunded. */
const PENDING_GIVE_UP_MS = 10 * 60_000;
const RECENT = 20;

export interface SongRequestPoints {
  /** Points are on in the channel (off: requests are free). */
  enabled(channelId: string): boolean;
  pointsName(channelId: string): string;
  walletOf(channelId: string, identity: IdentityInput): Promise<{ id: string }>;
}

export interface SongRequestServiceDeps extends SpotifyAccessDeps {
  repo: SongRequestRepository;
  client: Pick<SpotifyClient, 'addToQueue' | 'searchTracks' | 'track' | 'skipToNext' | 'nowPlaying'>;
  points: SongRequestPoints;
  bus: Pick<EventBus, 'publish'>;
  audit: AuditRecorder;
  /** The now-playing cache to drop when the player changed under it. */
  forgetNowPlaying?(channelId: string): void;
  clock?: () => number;
  log?: { warn(obj: object, msg?: string): void };
}

export function toSongRequestDto(r: SongRequestRow): SongRequest {
  return {
    id: r.id,
    provider: r.provider,
    provider_user_id: r.providerUserId,
    display_name: r.displayName,
    track: r.track,
    cost: r.cost,
    status: r.status,
    reason: r.reason,
    requested_at: r.requestedAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** A stored reason inside a chat sentence ("Name, song requests need …"). */
const inSentence = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const trackLabel = (t: { name: string; artists: string[] }) => `“${t.name}”${t.artists.length ? ` by ${t.artists.join(', ')}` : ''}`;

/** The chat sentence for a Spotify refusal of a player command. */
function playerRefusal(error: unknown): string | null {
  if (!(error instanceof PlatformError)) return null;
  if (error.reason === 'PREMIUM_REQUIRED') return 'Song requests need Spotify Premium on the streamer’s account.';
  if (error.reason === 'NO_ACTIVE_DEVICE') return 'The streamer’s Spotify has no active device: requests work while Spotify is playing.';
  return null;
}

export class SongRequestService {
  private readonly clock: () => number;

  constructor(private readonly deps: SongRequestServiceDeps) {
    this.clock = deps.clock ?? Date.now;
  }

  // Settings ----------------------------------------------------------------------------------

  settings(channelId: string): Promise<SongRequestSettings> {
    return this.deps.repo.settings(channelId);
  }

  async saveSettings(channelId: string, body: SongRequestSettingsBody, actorUserId: string): Promise<SongRequestSettings> {
    const s = songRequestSettingsSchema.parse(body);
    const seen = new Set<string>();
    s.blocked = s.blocked.filter((b) => !seen.has(b.uri) && seen.add(b.uri));
    await this.deps.repo.saveSettings(channelId, s);
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'song_requests.settings',
      data: { enabled: s.enabled, level: s.level, cost: s.cost, max_duration_seconds: s.max_duration_seconds, blocked: s.blocked.length },
    });
    return s;
  }

  // Chat ---------------------------------------------------------------------------------------

  /** `!sr <search or link>`: the reply. Never throws for a viewer's or Spotify's refusal: it says it. */
  async request(c: ChatCaller): Promise<string> {
    const who = c.user.displayName;
    const s = await this.deps.repo.settings(c.channelId);
    const retried = await this.deps.repo.byEffect(c.channelId, c.effectId);
    if (retried && retried.status !== 'pending') return this.outcome(retried, who);
    if (!retried) {
      if (!s.enabled) return `${who}, song requests are off right now.`;
      if (c.level < s.level) return `${who}, song requests are for ${accessLevelLabels[s.level as AccessLevelValue]} and up.`;
      if (c.query.trim() === '') return `${who}, usage: !sr <song name or Spotify link>`;
    }
    const access = await spotifyTokenOf(this.deps, c.channelId);
    if (access === 'not_connected') return `${who}, Spotify is not connected to this channel.`;
    if (access === 'reconnect') return `${who}, Spotify needs to be reconnected by the streamer.`;
    let row = retried;
    if (!row) {
      const found = await this.find(access.token, c.query);
      if (typeof found === 'string') return `${who}, ${found}`;
      const track = toTrackDto(found);
      if (s.blocked.some((b) => b.uri === track.uri)) return `${who}, ${trackLabel(track)} is blocked in this channel.`;
      if (track.duration_ms > s.max_duration_seconds * 1000)
        return `${who}, ${trackLabel(track)} is ${mmss(track.duration_ms)} long; the limit is ${mmss(s.max_duration_seconds * 1000)}.`;
      const cost = this.deps.points.enabled(c.channelId) ? s.cost : 0;
      const wallet = cost > 0 ? await this.deps.points.walletOf(c.channelId, identityOf(c)) : null;
      const created = await this.deps.repo.create({
        channelId: c.channelId,
        effectKey: c.effectId,
        walletId: wallet?.id ?? null,
        cost,
        provider: c.provider,
        providerUserId: c.user.providerUserId,
        displayName: who,
        track,
        maxPerUser: s.max_per_user,
        now: new Date(this.clock()),
      });
      if (created.status === 'limit')
        return `${who}, you already have ${created.waiting} song${created.waiting === 1 ? '' : 's'} waiting (the limit is ${s.max_per_user}).`;
      if (created.status === 'insufficient') {
        const name = this.deps.points.pointsName(c.channelId);
        return `${who}, a song request costs ${formatPoints(cost)} ${name} and you have ${formatPoints(created.balance)}.`;
      }
      row = created.row;
      if (created.status === 'duplicate' && row.status !== 'pending') return this.outcome(row, who);
      if (created.status === 'created') this.publish(row);
    }
    return this.send(row, access.token, who);
  }

  /** Puts a pending request in Spotify's queue; refused by Spotify: ended and refunded. */
  private async send(row: SongRequestRow, token: TokenSource, who: string): Promise<string> {
    try {
      await this.deps.client.addToQueue(token, row.track.uri);
    } catch (error) {
      const reason =
        playerRefusal(error) ??
        (isReconnectNeeded(error)
          ? 'Spotify needs to be reconnected by the streamer.'
          : error instanceof PlatformError && (error.code === 'refused' || error.code === 'not_found')
            ? error.message
            : null);
      if (reason === null) {
        // A passing failure: the chat effect is retried with the same key and sends again.
        this.deps.log?.warn({ err: error, channelId: row.channelId }, 'song request not queued');
        throw error;
      }
      const ended = await this.deps.repo.endWithRefund(row.channelId, row.id, ['pending'], 'refused', reason, false);
      if (ended) this.publish(ended);
      return `${who}, ${inSentence(reason)}${row.cost > 0 ? ' Your points were refunded.' : ''}`;
    }
    const queued = await this.deps.repo.move(row.channelId, row.id, ['pending'], 'queued');
    if (queued) this.publish(queued);
    return this.outcome(queued ?? row, who);
  }

  /** What a request's state says in chat (also the answer to a retried command). */
  private async outcome(row: SongRequestRow, who: string): Promise<string> {
    const t = row.track;
    if (row.status === 'refused' || row.status === 'removed')
      return `${who}, ${inSentence(row.reason ?? 'That request did not go through.')}`;
    const ahead = (await this.deps.repo.active(row.channelId)).filter((r) => r.requestedAt < row.requestedAt && r.status !== 'playing');
    const paid = row.cost > 0 ? ` for ${formatPoints(row.cost)} ${this.deps.points.pointsName(row.channelId)}` : '';
    const place = ahead.length === 0 ? 'next' : `#${ahead.length + 1}`;
    return `${who} added ${trackLabel(t)} [${mmss(t.duration_ms)}] to the queue (${place})${paid}.`;
  }

  /** A Spotify track from a link, URI or id, else the best search match; a sentence when there is none. */
  private async find(token: TokenSource, query: string) {
    try {
      const uri = spotifyTrackUri(query);
      if (uri) {
        try {
          return await this.deps.client.track(token, uri.slice('spotify:track:'.length));
        } catch (error) {
          if (error instanceof PlatformError && error.code === 'not_found') return 'that Spotify link is not a song Spotify knows.';
          throw error;
        }
      }
      if (/https?:\/\//i.test(query)) return 'only Spotify song links (open.spotify.com/track/…) can be requested.';
      const [best] = await this.deps.client.searchTracks(token, query.slice(0, 200), 1);
      return best ?? `no song found for “${query.slice(0, 80)}”.`;
    } catch (error) {
      if (isReconnectNeeded(error)) return 'Spotify needs to be reconnected by the streamer.';
      this.deps.log?.warn({ err: error }, 'song request search failed');
      return 'Spotify could not be asked right now, try again in a moment.';
    }
  }

  /** `!wrongsong`: removes the caller's newest waiting request (refunded). */
  async wrongSong(c: ChatCaller): Promise<string> {
    const who = c.user.displayName;
    const row = await this.deps.repo.latestQueuedOf(c.channelId, c.provider, c.user.providerUserId);
    if (!row) return `${who}, you have no song waiting.`;
    const ended = await this.deps.repo.endWithRefund(c.channelId, row.id, ['queued'], 'removed', `${who} took it back.`, true);
    if (!ended) return `${who}, that song is already playing.`;
    this.publish(ended);
    const refund = ended.cost > 0 ? ` (${formatPoints(ended.cost)} ${this.deps.points.pointsName(c.channelId)} refunded)` : '';
    return `${who}, removed ${trackLabel(ended.track)} from the queue${refund}.`;
  }

  // Staff --------------------------------------------------------------------------------------

  async list(channelId: string): Promise<SongRequestList> {
    const [active, recent] = await Promise.all([this.deps.repo.active(channelId), this.deps.repo.recent(channelId, RECENT)]);
    return { active: active.map(toSongRequestDto), recent: recent.map(toSongRequestDto) };
  }

  /** Removes a waiting request before it plays (refunded); it is skipped if Spotify gets to it. */
  async remove(channelId: string, id: string, actorUserId: string): Promise<SongRequest> {
    const row = await this.deps.repo.get(channelId, id);
    if (!row) throw notFound('This song request does not exist.');
    if (row.status === 'playing') throw new AppError(409, 'conflict', 'This song is playing: skip it instead.');
    const ended = await this.deps.repo.endWithRefund(channelId, id, ['queued'], 'removed', 'Removed by the channel staff.', true);
    if (!ended) throw new AppError(409, 'conflict', 'This song request is no longer waiting.');
    await this.deps.audit.record({
      channelId,
      actorUserId,
      action: 'song_requests.removed',
      data: { request_id: id, track: ended.track.name, viewer: ended.displayName, refunded: ended.cost },
    });
    this.publish(ended);
    return toSongRequestDto(ended);
  }

  /** Skips what Spotify plays (a playing request becomes `skipped`). */
  async skip(channelId: string, actorUserId: string): Promise<SongRequestList> {
    const access = await spotifyTokenOf(this.deps, channelId);
    if (access === 'not_connected') throw new AppError(422, 'unsupported', 'Spotify is not connected to this channel.');
    if (access === 'reconnect') throw new AppError(422, 'unsupported', 'Spotify needs to be reconnected.');
    const playing = (await this.deps.repo.active(channelId)).find((r) => r.status === 'playing');
    await this.deps.client.skipToNext(access.token);
    this.deps.forgetNowPlaying?.(channelId);
    if (playing) {
      const skipped = await this.deps.repo.move(channelId, playing.id, ['playing'], 'skipped');
      if (skipped) this.publish(skipped);
    }
    await this.deps.audit.record({ channelId, actorUserId, action: 'song_requests.skipped', data: { request_id: playing?.id ?? null } });
    await this.sync(channelId);
    return this.list(channelId);
  }

  // Following the player ------------------------------------------------------------------------

  /** Brings the requests in line with what Spotify plays, and skips removed requests that started playing. */
  async sync(channelId: string): Promise<void> {
    for (const stale of await this.deps.repo.stalePending(channelId, new Date(this.clock() - PENDING_GIVE_UP_MS))) {
      const ended = await this.deps.repo.endWithRefund(
        channelId,
        stale.id,
        ['pending'],
        'refused',
        'Spotify did not take the request.',
        false,
      );
      if (ended) this.publish(ended);
    }
    // A skip brings the next track, which may be a removed request too: look again (a few times at most).
    for (let round = 0; round < 5; round++) if (!(await this.followPlayer(channelId))) return;
  }

  /** One look at the player; true when it skipped a removed request. */
  private async followPlayer(channelId: string): Promise<boolean> {
    const rows = await this.deps.repo.followed(channelId);
    if (rows.length === 0) return false;
    const access = await spotifyTokenOf(this.deps, channelId);
    if (typeof access === 'string') return false;
    const now = await this.deps.client.nowPlaying(access.token);
    const currentId = now?.track.id ?? null;
    const at = rows.findIndex((r) => r.trackId === currentId && (r.status === 'queued' || r.status === 'playing' || r.skipWhenPlaying));
    for (const [i, r] of rows.entries()) {
      if (i === at) continue;
      // Spotify went past it (played out, or skipped in the Spotify app).
      if (r.status === 'playing' || (r.status === 'queued' && at > i)) {
        const done = await this.deps.repo.move(channelId, r.id, [r.status], 'played');
        if (done) this.publish(done);
      } else if (r.skipWhenPlaying && at > i) await this.deps.repo.claimSkip(r.id);
    }
    const current = at >= 0 ? rows[at]! : null;
    if (!current) return false;
    if (current.status === 'queued') {
      const playing = await this.deps.repo.move(channelId, current.id, ['queued'], 'playing');
      if (playing) this.publish(playing);
      return false;
    }
    if (current.status === 'playing' || !current.skipWhenPlaying || !(await this.deps.repo.claimSkip(current.id))) return false;
    await this.deps.client.skipToNext(access.token);
    this.deps.forgetNowPlaying?.(channelId);
    return true;
  }

  private publish(row: SongRequestRow): void {
    this.deps.bus.publish(channelTopic(row.channelId), {
      type: 'spotify.request',
      data: { channel_id: row.channelId, request: toSongRequestDto(row) },
    });
  }
}

/** Follows the player for every channel with requests to follow, every `everyMs` (5 s). */
export class SongRequestJob {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly deps: {
      repo: Pick<SongRequestRepository, 'followedChannels'>;
      service: Pick<SongRequestService, 'sync'>;
      everyMs?: number;
      log?: { warn(obj: object, msg?: string): void };
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.deps.everyMs ?? 5_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const channelId of await this.deps.repo.followedChannels()) {
        await this.deps.service
          .sync(channelId)
          .catch((err: unknown) => this.deps.log?.warn({ err, channelId }, 'song request sync failed'));
      }
    } catch (err) {
      this.deps.log?.warn({ err }, 'song request round failed');
    } finally {
      this.running = false;
    }
  }
}
