/**
 * YouTube's `liveChatMessages.streamList` over gRPC: `youtube.api.v3.V3DataLiveChatMessageService/StreamList`
 * (Google's stream_list.proto, in @greenroom/contracts/youtube-stream-list), on a grpc-js server of its own port
 * (the real service is youtube.googleapis.com:443; this one is plaintext on loopback).
 *
 * As Google documents it: the OAuth access token comes in the `authorization` metadata (`Bearer …`); each call costs
 * 5 quota units; the first responses carry the chat's recent history (or everything after `page_token`), oldest
 * first, then new items are pushed as they are posted; every response has a `next_page_token` a client resumes from;
 * when the broadcast ends a last response carries `offline_at` and the stream ends. `max_results` is not used by the
 * streaming RPC. A chat the API does not know is NOT_FOUND, a bad page token INVALID_ARGUMENT, a used-up quota
 * RESOURCE_EXHAUSTED. Tests can take the service down (clients see UNAVAILABLE) or answer UNIMPLEMENTED.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { liveChatMessageToGrpc, youtubeStreamListLoaderOptions, youtubeStreamListProto } from '@greenroom/contracts/youtube-stream-list';
import type { EmulatorContext } from '../context';
import type { Token } from '../world';
import { readScopes, shortScopes } from './errors';
import { rfc3339, etag, type Broadcast, type YoutubeLive } from './live-chat';

/** Items per response while catching up (the REST list's maximum page). */
const catchUpPage = 2000;
/** Items a first call without a page token gets: the chat's recent history. */
const recentHistory = 200;

interface StreamListRequest {
  live_chat_id?: string;
  page_token?: string;
  part?: string[];
}

export type StreamListMode = 'serving' | 'unavailable' | 'unimplemented';

export interface StreamListDeps {
  ctx: EmulatorContext;
  live: YoutubeLive;
  /** Charges a call's quota to the token's project; false when the day's quota is used up. */
  charge(token: Token): boolean;
  encodePageToken(seq: number): string;
  decodePageToken(token: string): number | null;
}

function loadService(): grpc.ServiceDefinition {
  const root = protobuf.parse(youtubeStreamListProto, { keepCase: true }).root;
  const definition = protoLoader.fromJSON(root.toJSON(), youtubeStreamListLoaderOptions);
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    youtube: { api: { v3: { V3DataLiveChatMessageService: grpc.ServiceClientConstructor } } };
  };
  return pkg.youtube.api.v3.V3DataLiveChatMessageService.service;
}

function fail(code: grpc.status, details: string): Partial<grpc.StatusObject> {
  return { code, details, metadata: new grpc.Metadata() };
}

export class YoutubeStreamListServer {
  private server: grpc.Server | null = null;
  private port = 0;
  private mode: StreamListMode = 'serving';
  private readonly calls = new Set<grpc.ServerWritableStream<StreamListRequest, unknown>>();
  private readonly service = loadService();

  constructor(private readonly deps: StreamListDeps) {}

  /** host:port clients dial (the same while the service is down), null before it first listened. */
  address(): string | null {
    return this.port ? `127.0.0.1:${this.port}` : null;
  }

  /** Streams open now. */
  openStreams(): number {
    return this.calls.size;
  }

  /** Listens on `port` (0: any free port first, then the same port again after `setMode('serving')`). */
  async start(port = this.port): Promise<void> {
    if (this.server) return;
    const server = new grpc.Server();
    server.addService(this.service, { StreamList: (call: grpc.ServerWritableStream<StreamListRequest, unknown>) => this.streamList(call) });
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    this.server = server;
  }

  /** Stops listening and drops every open stream (clients see UNAVAILABLE). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    this.calls.clear();
    server.forceShutdown();
  }

  /**
   * `serving`: normal; `unavailable`: the server stops listening (connections refused: UNAVAILABLE); `unimplemented`:
   * calls are answered UNIMPLEMENTED (a deployment without the method).
   */
  async setMode(mode: StreamListMode): Promise<void> {
    this.mode = mode;
    if (mode === 'unavailable') await this.stop();
    else await this.start();
    if (mode === 'unimplemented') for (const call of [...this.calls]) this.close(call, fail(grpc.status.UNIMPLEMENTED, 'Method not found'));
  }

  getMode(): StreamListMode {
    return this.mode;
  }

  /** Ends every open stream (the world was reset: the chats they read are gone, so reopening finds none). */
  dropAll(): void {
    for (const call of [...this.calls]) this.close(call, null);
  }

  private close(call: grpc.ServerWritableStream<StreamListRequest, unknown>, status: Partial<grpc.StatusObject> | null): void {
    if (!this.calls.delete(call)) return;
    if (status) call.emit('error', status);
    else call.end();
  }

  private bearer(call: grpc.ServerWritableStream<StreamListRequest, unknown>): string | undefined {
    const header = call.metadata.get('authorization')[0];
    return typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  }

  private authenticate(
    call: grpc.ServerWritableStream<StreamListRequest, unknown>,
  ): { ok: true; token: Token } | { ok: false; status: Partial<grpc.StatusObject> } {
    const checked = this.deps.ctx.world.checkToken('youtube', this.bearer(call));
    if (!checked.ok)
      return {
        ok: false,
        status: fail(
          grpc.status.UNAUTHENTICATED,
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        ),
      };
    const scopes = shortScopes(checked.token);
    if (!readScopes.some((s) => scopes.has(s)))
      return { ok: false, status: fail(grpc.status.PERMISSION_DENIED, 'Request had insufficient authentication scopes.') };
    return { ok: true, token: checked.token };
  }

  private streamList(call: grpc.ServerWritableStream<StreamListRequest, unknown>): void {
    if (this.mode === 'unimplemented') {
      call.emit('error', fail(grpc.status.UNIMPLEMENTED, 'Method not found'));
      return;
    }
    const auth = this.authenticate(call);
    if (!auth.ok) {
      call.emit('error', auth.status);
      return;
    }
    // Charged once per call, refused ones too (except for quota), however long the stream stays open.
    if (!this.deps.charge(auth.token)) {
      call.emit(
        'error',
        fail(grpc.status.RESOURCE_EXHAUSTED, 'quotaExceeded: The request cannot be completed because you have exceeded your quota.'),
      );
      return;
    }
    const request = call.request;
    const parts = new Set(
      (request.part ?? [])
        .flatMap((p) => p.split(','))
        .map((p) => p.trim())
        .filter(Boolean),
    );
    if (parts.size === 0) {
      call.emit('error', fail(grpc.status.INVALID_ARGUMENT, 'Required parameter: part'));
      return;
    }
    if (!request.live_chat_id) {
      call.emit('error', fail(grpc.status.INVALID_ARGUMENT, 'Required parameter: liveChatId'));
      return;
    }
    const broadcast = this.deps.live.byLiveChatId(request.live_chat_id);
    if (!broadcast) {
      call.emit('error', fail(grpc.status.NOT_FOUND, 'liveChatNotFound: The live chat that you are trying to retrieve cannot be found.'));
      return;
    }
    let next: number | null = null;
    if (request.page_token) {
      next = this.deps.decodePageToken(request.page_token);
      if (next === null) {
        call.emit('error', fail(grpc.status.INVALID_ARGUMENT, 'pageTokenInvalid: The request specifies an invalid page token.'));
        return;
      }
    }
    this.calls.add(call);
    this.pump(call, broadcast, next, parts);
  }

  /** Writes what the chat holds after the client's position, then whatever is posted, until the broadcast ends. */
  private pump(
    call: grpc.ServerWritableStream<StreamListRequest, unknown>,
    broadcast: Broadcast,
    from: number | null,
    parts: Set<string>,
  ): void {
    const { live } = this.deps;
    let position = from;
    let waitingForDrain = false;
    let sentFirst = false;
    const project = (item: Broadcast['items'][number]): Record<string, unknown> => {
      const out: Record<string, unknown> = { kind: item.kind, etag: item.etag, id: item.id };
      if (parts.has('snippet')) out.snippet = item.snippet;
      if (parts.has('authorDetails')) out.authorDetails = item.authorDetails;
      return liveChatMessageToGrpc(out);
    };
    const bearer = this.bearer(call);
    const flush = (): void => {
      if (waitingForDrain || !this.calls.has(call)) return;
      // The token is checked on every push, not only at the start: an expired or revoked one ends the stream.
      if (!this.deps.ctx.world.checkToken('youtube', bearer).ok) {
        this.close(call, fail(grpc.status.UNAUTHENTICATED, 'Request had invalid authentication credentials.'));
        return;
      }
      for (;;) {
        const page = live.page(broadcast, position, position === null ? recentHistory : catchUpPage);
        const ended = !live.isActive(broadcast) && broadcast.endedAt !== null;
        if (page.items.length === 0 && sentFirst && !ended) return;
        position = page.next;
        const response: Record<string, unknown> = {
          kind: 'youtube#liveChatMessageListResponse',
          etag: etag(),
          page_info: { total_results: page.items.length, results_per_page: page.items.length },
          next_page_token: this.deps.encodePageToken(page.next),
          items: page.items.map(project),
        };
        if (ended && !page.more) response.offline_at = rfc3339(broadcast.endedAt!);
        sentFirst = true;
        const room = call.write(response);
        if (response.offline_at) {
          this.close(call, null);
          return;
        }
        if (!room) {
          waitingForDrain = true;
          call.once('drain', () => {
            waitingForDrain = false;
            flush();
          });
          return;
        }
        if (!page.more) return;
      }
    };
    const unwatch = live.watch((changed) => {
      if (changed === broadcast) flush();
    });
    const onRevoked = (token: Token): void => {
      if (token.accessToken === bearer) flush();
    };
    this.deps.ctx.world.on('token.revoked', onRevoked);
    const forget = (): void => {
      unwatch();
      this.deps.ctx.world.off('token.revoked', onRevoked);
      this.calls.delete(call);
    };
    call.on('cancelled', forget);
    call.on('close', forget);
    call.on('finish', forget);
    call.on('error', forget);
    flush();
  }
}
