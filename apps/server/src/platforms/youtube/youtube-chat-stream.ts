/**
 * YouTube live chat over gRPC: `liveChatMessages.streamList` (`youtube.api.v3.V3DataLiveChatMessageService/StreamList`,
 * Google's stream_list.proto). One server-streaming call per live chat: the responses carry the chat's items oldest
 * first, each with a `next_page_token` to resume from, and the last one `offline_at` when the broadcast ended. A call
 * costs 5 quota units however long it streams, where polling liveChatMessages.list costs 5 units every few seconds.
 *
 * Failures become the one PlatformError with Google's reason where there is one (the adapter reacts to quota, ended
 * chats, reconnection), and `streamUnavailable` when the service cannot be reached or does not implement the method:
 * the adapter then polls instead.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { liveChatMessageFromGrpc, youtubeStreamListLoaderOptions, youtubeStreamListProto } from '@greenroom/contracts/youtube-stream-list';
import { PlatformError, reconnectNeeded } from '../platform-error';
import type { TokenSource } from '../port';
import { chatItemSchema, type YoutubeChatItem, type YoutubeClientOptions } from './youtube-client';

export interface YoutubeStreamEndpoint {
  /** host:port (the real service: youtube.googleapis.com:443). */
  address: string;
  /** TLS (Google) or plaintext (the emulator on loopback). */
  tls: boolean;
}

/** One streamed response, in the shape of a polled page. */
export interface YoutubeStreamPage {
  items: YoutubeChatItem[];
  nextPageToken: string | null;
  offlineAt: string | null;
}

/** The stream cannot be used (unreachable, or the method is not served): poll instead. */
export const STREAM_UNAVAILABLE = 'streamUnavailable';

export function isStreamUnavailable(error: unknown): error is PlatformError {
  return error instanceof PlatformError && error.reason === STREAM_UNAVAILABLE;
}

interface StreamListResponse {
  items?: object[];
  next_page_token?: string;
  offline_at?: string;
}

type StreamListClient = grpc.Client & {
  StreamList(request: object, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<StreamListResponse>;
};

let serviceClient: grpc.ServiceClientConstructor | null = null;

function clientConstructor(): grpc.ServiceClientConstructor {
  if (!serviceClient) {
    const root = protobuf.parse(youtubeStreamListProto, { keepCase: true }).root;
    const definition = protoLoader.fromJSON(root.toJSON(), youtubeStreamListLoaderOptions);
    const pkg = grpc.loadPackageDefinition(definition) as unknown as {
      youtube: { api: { v3: { V3DataLiveChatMessageService: grpc.ServiceClientConstructor } } };
    };
    serviceClient = pkg.youtube.api.v3.V3DataLiveChatMessageService;
  }
  return serviceClient;
}

/** Google's reason, when the status message names one (`quotaExceeded: …`, or the reason anywhere in the text). */
const knownReasons = ['quotaExceeded', 'dailyLimitExceeded', 'rateLimitExceeded', 'liveChatEnded', 'liveChatDisabled', 'liveChatNotFound'];

function reasonIn(details: string): string | null {
  return knownReasons.find((r) => details.includes(r)) ?? null;
}

/** A gRPC status → the one PlatformError (a 401-like status only after one refresh was tried). */
export function parseStreamError(error: { code?: number; details?: string }): PlatformError {
  const code: grpc.status = error.code ?? grpc.status.UNKNOWN;
  const details = error.details ?? '';
  const reason = reasonIn(details);
  const fail = (kind: PlatformError['code'], text: string, why: string): PlatformError =>
    new PlatformError(kind, 'youtube', text, { reason: why });
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded')
    return fail(
      'rate_limited',
      'The YouTube API quota for today is used up, so Greenroom cannot read the live chat until it resets (midnight Pacific time).',
      reason,
    );
  if (reason === 'liveChatEnded') return fail('refused', 'Cannot read the live chat: the YouTube live chat has ended.', reason);
  if (reason === 'liveChatDisabled')
    return fail('refused', 'Cannot read the live chat: the live chat is disabled on this YouTube broadcast.', reason);
  switch (code) {
    case grpc.status.UNAUTHENTICATED:
      return reconnectNeeded('youtube', 'the token was refused');
    case grpc.status.PERMISSION_DENIED:
      if (/insufficient authentication scopes/i.test(details))
        return reconnectNeeded('youtube', 'missing scope youtube.force-ssl, reconnect YouTube to grant it', 'insufficient_scope');
      return fail('refused', `YouTube did not allow Greenroom to read the live chat: ${details}`, 'forbidden');
    case grpc.status.NOT_FOUND:
      return fail('not_found', 'Cannot read the live chat: YouTube does not know this live chat any more.', 'liveChatNotFound');
    case grpc.status.RESOURCE_EXHAUSTED:
      return fail('rate_limited', 'YouTube is rate limiting Greenroom, wait a moment.', reason ?? 'rateLimitExceeded');
    case grpc.status.UNAVAILABLE:
    case grpc.status.UNIMPLEMENTED:
      return fail('temporary', `YouTube's live chat stream is unavailable (${details || grpc.status[code]}).`, STREAM_UNAVAILABLE);
    case grpc.status.INVALID_ARGUMENT:
      return fail(
        'refused',
        `YouTube refused to stream the live chat: ${details}`,
        /pageToken/i.test(details) ? 'pageTokenInvalid' : 'badRequest',
      );
    default:
      return fail('temporary', `YouTube's live chat stream failed (${grpc.status[code] ?? code}: ${details}).`, 'backendError');
  }
}

export class YoutubeChatStream {
  private client: StreamListClient | null = null;

  constructor(
    private readonly endpoint: YoutubeStreamEndpoint,
    private readonly quota?: YoutubeClientOptions['quota'],
  ) {}

  private connect(): StreamListClient {
    if (!this.client) {
      const Client = clientConstructor();
      const credentials = this.endpoint.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
      // Keepalive pings (only while a stream is open) notice a dead connection within a minute instead of waiting for
      // TCP to give up. 30 s is the shortest interval Google's front ends accept: more often is answered with GOAWAY
      // too_many_pings, as Google's own client libraries note.
      this.client = new Client(this.endpoint.address, credentials, {
        'grpc.keepalive_time_ms': 30_000,
        'grpc.keepalive_timeout_ms': 10_000,
        'grpc.max_receive_message_length': 16 * 1024 * 1024,
      }) as unknown as StreamListClient;
    }
    return this.client;
  }

  /** Closes the channel (the server shutting down). */
  close(): void {
    this.client?.close();
    this.client = null;
  }

  /**
   * Streams the live chat from `pageToken` (null: its recent history), one page per response, until the broadcast
   * ends (a page with `offlineAt`, then the stream ends), the server ends the call (the generator returns: open it
   * again from the last token) or `signal` aborts. A token the service refuses (at the start, or mid-stream once it
   * expired) is refreshed once and the stream opened again after the last page handed out: every page handed out was
   * taken, since a consumer that cannot take one stops reading.
   */
  async *stream(token: TokenSource, liveChatId: string, pageToken: string | null, signal: AbortSignal): AsyncGenerator<YoutubeStreamPage> {
    let access = await token.accessToken();
    let from = pageToken;
    let refreshed = false;
    for (;;) {
      const request = {
        live_chat_id: liveChatId,
        part: ['id', 'snippet', 'authorDetails'],
        ...(from ? { page_token: from } : {}),
      };
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${access}`);
      const call = this.connect().StreamList(request, metadata);
      const abort = (): void => call.cancel();
      signal.addEventListener('abort', abort, { once: true });
      let received = false;
      try {
        for await (const response of call as AsyncIterable<StreamListResponse>) {
          // Charged once per call the service performed, however long it streams.
          if (!received) this.quota?.spend('liveChatMessages.streamList');
          received = true;
          refreshed = false;
          const items: YoutubeChatItem[] = [];
          for (const raw of response.items ?? []) {
            const parsed = chatItemSchema.safeParse(liveChatMessageFromGrpc(raw));
            if (parsed.success) items.push(parsed.data);
          }
          yield { items, nextPageToken: response.next_page_token ?? null, offlineAt: response.offline_at ?? null };
          from = response.next_page_token ?? from;
        }
        if (!received) this.quota?.spend('liveChatMessages.streamList');
        return;
      } catch (error) {
        if (signal.aborted) return;
        const status = error as { code?: number; details?: string };
        if (status.code === grpc.status.UNAUTHENTICATED && !refreshed) {
          if (!received) this.quota?.spend('liveChatMessages.streamList');
          refreshed = true;
          access = await token.refreshAfterUnauthorized(access);
          continue;
        }
        const failure = parseStreamError(status);
        if (failure.reason === 'quotaExceeded' || failure.reason === 'dailyLimitExceeded') this.quota?.exhausted();
        // A call the service performed is charged (one refused for quota, or never reaching it, is not).
        else if (!received && !isStreamUnavailable(failure)) this.quota?.spend('liveChatMessages.streamList');
        throw failure;
      } finally {
        signal.removeEventListener('abort', abort);
        call.cancel();
      }
    }
  }
}
