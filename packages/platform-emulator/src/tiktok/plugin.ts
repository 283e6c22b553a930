/**
 * TikTok: Login Kit v2 identity (`GET /tiktok/v2/user/info/`) and the LIVE event stream
 * (`GET /tiktok-live/{uniqueId}`, WebSocket, frames in ./frames.ts).
 */
import { createHash } from 'node:crypto';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { EmulatorContext } from '../context';
import type { Account, Channel, ChannelEvent, ChatMessage } from '../world';
import { findTikTokGift } from './gifts';
import { tiktokCloseCodes, type TikTokCommon, type TikTokImage, type TikTokLiveFrame, type TikTokText, type TikTokUser } from './frames';

/** Login Kit fields and the scope that grants them. */
const fieldScopes: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

function logId(): string {
  const d = new Date();
  const stamp = d.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${stamp}${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 18).toUpperCase()}`;
}

function tiktokError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send({ data: {}, error: { code, message, log_id: logId() } });
}

function image(url: string, size = 100): TikTokImage {
  return { urlList: [url], uri: url, width: size, height: size, avgColor: '', isAnimated: false };
}

function text(key: string, pattern: string): TikTokText {
  return { key, defaultPattern: pattern, pieces: [] };
}

function roomIdOf(channelId: string, startedAt: Date | null): string {
  const digits = BigInt(
    `0x${createHash('sha1')
      .update(`${channelId}:${startedAt?.getTime() ?? 0}`)
      .digest('hex')
      .slice(0, 15)}`,
  ).toString();
  return `7${digits.padStart(18, '0').slice(0, 18)}`;
}

export async function tiktokPlugin(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { world } = ctx;
  if (world.getMaxListeners() < 100) world.setMaxListeners(100);
  if (!app.hasDecorator('websocketServer')) await app.register(fastifyWebsocket);

  // ---- Login Kit identity ----
  const userInfo = async (request: FastifyRequest<{ Querystring: { fields?: string } }>, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const bearer = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
    const checked = world.checkToken('tiktok', bearer);
    if (!checked.ok) return tiktokError(reply, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    const token = checked.token;
    const fields = (request.query.fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0 || fields.some((f) => !(f in fieldScopes)))
      return tiktokError(reply, 400, 'invalid_params', 'The fields parameter is missing or contains an invalid field.');
    if (fields.some((f) => !token.scopes.includes(fieldScopes[f]!))) {
      return tiktokError(reply, 401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.');
    }
    const account = token.userId ? world.account('tiktok', token.userId) : undefined;
    if (!account) return tiktokError(reply, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    const all: Record<string, unknown> = {
      open_id: `-000${createHash('sha256').update(`${token.clientId}:${account.id}`).digest('hex').slice(0, 32)}`,
      union_id: createHash('sha256').update(`union:${account.id}`).digest('hex').slice(0, 36),
      avatar_url: account.avatarUrl,
      avatar_url_100: account.avatarUrl,
      avatar_large_url: account.avatarUrl,
      display_name: account.displayName,
      bio_description: '',
      profile_deep_link: `https://vm.tiktok.com/${account.login}`,
      is_verified: account.kind === 'streamer',
      username: account.login,
      follower_count: 0,
      following_count: 0,
      likes_count: 0,
      video_count: 0,
    };
    const user: Record<string, unknown> = {};
    for (const f of fields) user[f] = all[f];
    return { data: { user }, error: { code: 'ok', message: '', log_id: logId() } };
  };
  app.get('/tiktok/v2/user/info/', userInfo);
  app.get('/tiktok/v2/user/info', userInfo);

  // ---- LIVE stream ----
  const sockets = new Map<string, Set<WebSocket>>(); // channel id → sockets
  const likeTotals = new Map<string, number>();

  function tiktokUser(account: Account | undefined, id: string): TikTokUser {
    const avatar = account?.avatarUrl ?? '';
    const handle = account?.login ?? id;
    return {
      id,
      nickname: account?.displayName ?? handle,
      displayId: handle,
      secUid: `MS4wLjABAAAA${createHash('sha1').update(id).digest('base64url')}`,
      avatarThumb: image(avatar),
      verified: account?.kind === 'streamer',
      followInfo: { followingCount: '0', followerCount: '0', followStatus: '0', pushStatus: '0' },
      userId: id,
      uniqueId: handle,
      profilePicture: { url: [avatar] },
    };
  }

  function common(channel: Channel, method: string, msgId: string, at: Date, display?: TikTokText): TikTokCommon {
    return {
      method,
      msgId,
      roomId: roomIdOf(channel.id, channel.startedAt),
      createTime: String(at.getTime()),
      isShowMsg: true,
      describe: '',
      displayText: display,
    };
  }

  function msgIdOf(seed: string): string {
    return BigInt(`0x${createHash('sha1').update(seed).digest('hex').slice(0, 15)}`)
      .toString()
      .padStart(19, '7');
  }

  function broadcast(channelId: string, frames: TikTokLiveFrame[]): void {
    const set = sockets.get(channelId);
    if (!set || set.size === 0) return;
    for (const frame of frames) {
      const json = JSON.stringify(frame);
      for (const socket of set) if (socket.readyState === socket.OPEN) socket.send(json);
    }
  }

  const onChat = (message: ChatMessage): void => {
    if (message.platform !== 'tiktok' || !sockets.has(message.channelId)) return;
    const channel = world.channel('tiktok', message.channelId);
    if (!channel) return;
    const user = tiktokUser(world.account('tiktok', message.authorId), message.authorId);
    broadcast(channel.id, [
      {
        event: 'chat',
        data: {
          common: common(channel, 'WebcastChatMessage', msgIdOf(message.id), message.createdAt),
          user,
          content: message.text,
          comment: message.text,
          visibleToSender: true,
          contentLanguage: 'en',
          emotes: [],
        },
      },
    ]);
  };

  function eventFrames(channel: Channel, event: ChannelEvent): TikTokLiveFrame[] {
    const userId = event.userId ?? '';
    const user = tiktokUser(world.account('tiktok', userId), userId);
    const owner = tiktokUser(world.account('tiktok', channel.id), channel.id);
    const msgId = msgIdOf(event.id);
    switch (event.type) {
      case 'tiktok_gift':
      case 'gift': {
        const def = findTikTokGift(event.data.giftId ?? event.data.giftName ?? event.data.name);
        const diamondCount = typeof event.data.diamondCount === 'number' ? event.data.diamondCount : def.diamondCount;
        const count = Math.max(
          1,
          Math.min(
            1000,
            typeof event.data.repeatCount === 'number'
              ? event.data.repeatCount
              : typeof event.data.count === 'number'
                ? event.data.count
                : 1,
          ),
        );
        const gift = {
          id: def.id,
          name: def.name,
          describe: `sent ${def.name}`,
          diamondCount,
          type: def.type,
          combo: def.type === 1,
          image: image(`https://p16-webcast.tiktokcdn.com/img/maliva/webcast-va/${def.id}~tplv-obj.png`, 135),
        };
        const frame = (repeatCount: number, repeatEnd: number, index: number): TikTokLiveFrame => ({
          event: 'gift',
          data: {
            common: common(
              channel,
              'WebcastGiftMessage',
              index === 0 ? msgId : msgIdOf(`${event.id}:${index}`),
              event.createdAt,
              text('pm_mt_msg_viewer', '{0:user} sent {1:gift} × {2:string}'),
            ),
            giftId: def.id,
            user,
            toUser: owner,
            repeatCount,
            comboCount: repeatCount,
            groupCount: 1,
            repeatEnd,
            groupId: msgId,
            gift,
            giftDetails: { giftName: def.name, giftType: def.type, diamondCount, describe: gift.describe },
          },
        });
        if (def.type !== 1) return [frame(count, 1, 0)];
        // A streak: one event per repeat (capped at 20 intermediate events), then the final one with repeatEnd = 1.
        const frames: TikTokLiveFrame[] = [];
        const step = Math.max(1, Math.ceil(count / 20));
        for (let n = 1; n <= count; n += step) frames.push(frame(n, 0, frames.length + 1));
        frames.push(frame(count, 1, 0));
        return frames;
      }
      case 'follow':
        return [
          {
            event: 'follow',
            data: {
              common: common(
                channel,
                'WebcastSocialMessage',
                msgId,
                event.createdAt,
                text('pm_main_follow_message_viewer_2', '{0:user} followed the LIVE creator'),
              ),
              user,
              action: '1',
              followCount: String(typeof event.data.total === 'number' ? event.data.total : 1),
              shareType: '0',
              shareTarget: '',
              shareCount: 0,
            },
          },
        ];
      case 'like': {
        const count = typeof event.data.count === 'number' ? event.data.count : 1;
        const total = (likeTotals.get(channel.id) ?? 0) + count;
        likeTotals.set(channel.id, total);
        return [
          {
            event: 'like',
            data: {
              common: common(channel, 'WebcastLikeMessage', msgId, event.createdAt, text('pm_mt_msg_viewer', '{0:user} liked the LIVE')),
              user,
              count,
              total: String(total),
              likeCount: count,
              totalLikeCount: total,
            },
          },
        ];
      }
      case 'member_join':
        return [
          {
            event: 'member',
            data: {
              common: common(channel, 'WebcastMemberMessage', msgId, event.createdAt, text('live_room_enter_toast', '{0:user} joined')),
              user,
              memberCount: channel.viewerCount,
              action: 1,
              actionDescription: '',
              userId,
            },
          },
        ];
      case 'sub':
      case 'resub':
        return [
          {
            event: 'subscribe',
            data: {
              common: common(
                channel,
                'WebcastSubNotifyMessage',
                msgId,
                event.createdAt,
                text('ttlive_subscriber_subscribed', '{0:user} subscribed'),
              ),
              user,
              subMonth: String(typeof event.data.months === 'number' ? event.data.months : 1),
              subscribeType: 1,
              subscribingStatus: 1,
              isSend: false,
              isCustom: false,
            },
          },
        ];
      case 'stream_offline':
        return [{ event: 'streamEnd', data: { action: 3 } }];
      case 'stream_online':
      case 'raid':
      case 'cheer':
      case 'superchat':
      case 'supersticker':
      case 'membership':
      case 'membership_gift':
      case 'kicks':
        return [];
    }
  }

  const onEvent = (event: ChannelEvent): void => {
    if (event.platform !== 'tiktok') return;
    if (event.type === 'stream_offline') likeTotals.delete(event.channelId);
    if (!sockets.has(event.channelId)) return;
    const channel = world.channel('tiktok', event.channelId);
    if (!channel) return;
    broadcast(channel.id, eventFrames(channel, event));
    if (event.type === 'stream_offline') {
      for (const socket of sockets.get(channel.id) ?? []) socket.close(tiktokCloseCodes.streamEnded, 'stream ended');
      sockets.delete(channel.id);
    }
  };
  const onReset = (): void => {
    for (const set of sockets.values()) for (const socket of set) socket.close(1001, 'reset');
    sockets.clear();
    likeTotals.clear();
  };
  world.on('chat', onChat);
  world.on('event', onEvent);
  world.on('reset', onReset);
  app.addHook('onClose', async () => {
    world.off('chat', onChat);
    world.off('event', onEvent);
    world.off('reset', onReset);
    for (const set of sockets.values()) for (const socket of set) socket.terminate();
    sockets.clear();
  });

  app.get('/tiktok-live/:uniqueId', { websocket: true }, (socket: WebSocket, request: FastifyRequest) => {
    const { uniqueId } = request.params as { uniqueId: string };
    const handle = decodeURIComponent(uniqueId).replace(/^@/, '').toLowerCase();
    const account = world.accountByLogin('tiktok', handle);
    const channel = account ? world.channel('tiktok', account.id) : undefined;
    if (!account || !channel) {
      socket.close(tiktokCloseCodes.userOffline, 'user not found');
      return;
    }
    if (!channel.live) {
      socket.close(tiktokCloseCodes.userOffline, 'user offline');
      return;
    }
    let set = sockets.get(channel.id);
    if (!set) {
      set = new Set();
      sockets.set(channel.id, set);
    }
    set.add(socket);
    socket.on('close', () => {
      const current = sockets.get(channel.id);
      current?.delete(socket);
      if (current?.size === 0) sockets.delete(channel.id);
    });
    socket.on('message', () => undefined); // read-only stream: client frames are ignored
    const owner = tiktokUser(account, account.id);
    const frame: TikTokLiveFrame = {
      event: 'connected',
      data: {
        isConnected: true,
        isConnecting: false,
        roomId: roomIdOf(channel.id, channel.startedAt),
        roomInfo: {
          id: roomIdOf(channel.id, channel.startedAt),
          title: channel.title,
          status: 2,
          owner,
          user_count: channel.viewerCount,
          create_time: Math.floor((channel.startedAt?.getTime() ?? Date.now()) / 1000),
        },
        availableGifts: null,
      },
    };
    socket.send(JSON.stringify(frame));
  });
}
