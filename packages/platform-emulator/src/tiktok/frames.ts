/**
 * Frames streamed by the TikTok LIVE emulator at `ws://…/tiktok-live/{uniqueId}`: one JSON text frame
 * per event, `{ event, data }`, where `data` is shaped like the object `tiktok-live-connector` v2 emits
 * for that event (a subset of the decoded Webcast protobuf message).
 *
 * Field names follow the installed tiktok-live-connector 2.5 (tiktok-live-proto v3): `user.id`,
 * `user.displayId` (the @uniqueId), `user.nickname`, chat text in `content`, gifts with `giftId`,
 * `repeatCount`, `repeatEnd` and `gift.diamondCount`. Connector 2.0–2.4 (proto v2) named some of these
 * differently; those names are carried too, marked "v2.0–2.4 name", so an adapter written against
 * either works: `user.userId`, `user.uniqueId`, `user.profilePicture`, `comment`, `giftDetails`.
 *
 * Event names are the connector's `WebcastEvent` / `ControlEvent` values: chat, gift, follow, like,
 * member, subscribe (2.5 emits WebcastSubNotifyMessage as `subNotify`; older 2.x as `subscribe`),
 * streamEnd, and connected. When the stream ends the server sends `streamEnd` and closes the socket
 * (1000, "stream ended"); connecting to an offline or unknown user is refused with close code 4404 and
 * reason "user offline" (or "user not found"), as `connect()` fails with UserOfflineError.
 */

export interface TikTokImage {
  urlList: string[];
  uri: string;
  width: number;
  height: number;
  avgColor: string;
  isAnimated: boolean;
}

export interface TikTokText {
  key: string;
  defaultPattern: string;
  pieces: { type: number; stringValue: string }[];
}

export interface TikTokUser {
  id: string;
  nickname: string;
  /** The @uniqueId (handle). */
  displayId: string;
  secUid: string;
  avatarThumb: TikTokImage;
  verified: boolean;
  followInfo: { followingCount: string; followerCount: string; followStatus: string; pushStatus: string };
  /** v2.0–2.4 name of `id`. */
  userId: string;
  /** v2.0–2.4 name of `displayId`. */
  uniqueId: string;
  /** v2.0–2.4 name of `avatarThumb`. */
  profilePicture: { url: string[] };
}

export interface TikTokCommon {
  method: string;
  msgId: string;
  roomId: string;
  /** Milliseconds since the epoch, as a string (int64 in the protobuf). */
  createTime: string;
  isShowMsg: boolean;
  describe: string;
  displayText: TikTokText | undefined;
}

export interface TikTokChatData {
  common: TikTokCommon;
  user: TikTokUser;
  content: string;
  /** v2.0–2.4 name of `content`. */
  comment: string;
  visibleToSender: boolean;
  contentLanguage: string;
  emotes: never[];
}

export interface TikTokGiftDetails {
  id: string;
  name: string;
  describe: string;
  diamondCount: number;
  /** 1 = streakable (combo); a streak repeats events until `repeatEnd` is 1. */
  type: number;
  combo: boolean;
  image: TikTokImage;
}

export interface TikTokGiftData {
  common: TikTokCommon;
  giftId: string;
  user: TikTokUser;
  toUser: TikTokUser;
  repeatCount: number;
  comboCount: number;
  groupCount: number;
  /** 0 while a streak is running, 1 on its last event (and for non-streakable gifts). */
  repeatEnd: number;
  groupId: string;
  gift: TikTokGiftDetails;
  /** v2.0–2.4 name of `gift` (`giftName`, `giftType`, `diamondCount`). */
  giftDetails: { giftName: string; giftType: number; diamondCount: number; describe: string };
}

export interface TikTokSocialData {
  common: TikTokCommon;
  user: TikTokUser;
  action: string;
  followCount: string;
  shareType: string;
  shareTarget: string;
  shareCount: number;
}

export interface TikTokLikeData {
  common: TikTokCommon;
  user: TikTokUser;
  count: number;
  /** Room total so far (int64 → string). */
  total: string;
  /** v2.0–2.4 names. */
  likeCount: number;
  totalLikeCount: number;
}

export interface TikTokMemberData {
  common: TikTokCommon;
  user: TikTokUser;
  memberCount: number;
  /** 1 = MEMBER_MESSAGE_ACTION_JOINED. */
  action: number;
  actionDescription: string;
  userId: string;
}

export interface TikTokSubscribeData {
  common: TikTokCommon;
  user: TikTokUser;
  subMonth: string;
  /** 1 = SUBSCRIBE_TYPE_ONCE. */
  subscribeType: number;
  /** 1 = SUBSCRIBING_STATUS_ONCE. */
  subscribingStatus: number;
  isSend: boolean;
  isCustom: boolean;
}

export interface TikTokStreamEndData {
  /** ControlAction: 3 = CONTROL_ACTION_STREAM_ENDED. */
  action: number;
}

export interface TikTokConnectedData {
  isConnected: true;
  isConnecting: false;
  roomId: string;
  roomInfo: { id: string; title: string; status: number; owner: TikTokUser; user_count: number; create_time: number };
  availableGifts: null;
}

export type TikTokLiveFrame =
  | { event: 'connected'; data: TikTokConnectedData }
  | { event: 'chat'; data: TikTokChatData }
  | { event: 'gift'; data: TikTokGiftData }
  | { event: 'follow'; data: TikTokSocialData }
  | { event: 'like'; data: TikTokLikeData }
  | { event: 'member'; data: TikTokMemberData }
  | { event: 'subscribe'; data: TikTokSubscribeData }
  | { event: 'streamEnd'; data: TikTokStreamEndData };

export type TikTokLiveEventName = TikTokLiveFrame['event'];

/** Close codes of the emulated live socket. */
export const tiktokCloseCodes = { streamEnded: 1000, userOffline: 4404 } as const;
