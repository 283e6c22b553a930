/**
 * Discord's execute-webhook and edit-webhook-message calls, with Discord's answers as values: the message id, or
 * why not (a rate limit with the seconds to wait, the webhook gone, the message gone, a refusal, or a temporary
 * failure after which the post may or may not have been taken).
 */
export interface WebhookTarget {
  id: string;
  token: string;
}

export interface WebhookMessage {
  content: string;
  embeds: Record<string, unknown>[];
  allowed_mentions: { parse: string[]; roles?: string[] };
}

export type WebhookFailure =
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'unknown_webhook'; message: string }
  | { kind: 'unknown_message'; message: string }
  | { kind: 'refused'; message: string }
  /** No answer or a 5xx: Discord may have taken the request. */
  | { kind: 'temporary'; message: string };

export type WebhookResult = { ok: true; messageId: string } | { ok: false; failure: WebhookFailure };

const TIMEOUT_MS = 15_000;

export class DiscordWebhookClient {
  constructor(
    /** Discord's API base, e.g. `https://discord.com/api/v10` (the emulator's in tests). */
    private readonly apiUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Posts and waits for the message (`?wait=true`), to learn its id. */
  post(target: WebhookTarget, message: WebhookMessage): Promise<WebhookResult> {
    return this.call('POST', `/webhooks/${target.id}/${target.token}?wait=true`, message);
  }

  /** Edits a message the webhook posted (only the fields sent change). */
  edit(target: WebhookTarget, messageId: string, message: Partial<WebhookMessage>): Promise<WebhookResult> {
    return this.call('PATCH', `/webhooks/${target.id}/${target.token}/messages/${messageId}`, message);
  }

  private async call(method: 'POST' | 'PATCH', path: string, body: unknown): Promise<WebhookResult> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.apiUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      return { ok: false, failure: { kind: 'temporary', message: `Discord did not answer (${(error as Error).message}).` } };
    }
    const json = (await res.json().catch(() => null)) as { id?: string; message?: string; code?: number; retry_after?: number } | null;
    if (res.ok && json?.id) return { ok: true, messageId: json.id };
    const said = json?.message ?? `HTTP ${res.status}`;
    if (res.status === 429) {
      const seconds = json?.retry_after ?? Number(res.headers.get('retry-after') ?? 1);
      return { ok: false, failure: { kind: 'rate_limited', retryAfterSeconds: Number.isFinite(seconds) ? seconds : 1 } };
    }
    if (res.status === 404 && json?.code === 10008) return { ok: false, failure: { kind: 'unknown_message', message: said } };
    if (res.status === 404 || res.status === 401) return { ok: false, failure: { kind: 'unknown_webhook', message: said } };
    if (res.status >= 500) return { ok: false, failure: { kind: 'temporary', message: said } };
    return { ok: false, failure: { kind: 'refused', message: said } };
  }
}

/** What a failure means to a streamer. */
export function failureMessage(failure: WebhookFailure): string {
  switch (failure.kind) {
    case 'rate_limited':
      return `Discord is rate limiting this webhook: try again in ${Math.ceil(failure.retryAfterSeconds)} s.`;
    case 'unknown_webhook':
      return 'Discord does not know this webhook any more (it was deleted or its URL changed): paste its current URL.';
    case 'unknown_message':
      return 'The announcement was deleted in Discord.';
    case 'refused':
      return `Discord refused the message: ${failure.message}`;
    case 'temporary':
      return `Discord could not be reached: ${failure.message}`;
  }
}
