/**
 * Loggers that keep secrets and user data out of the logs: request URLs lose invitation ids and OAuth
 * codes/states, and errors lose what databases and drivers attach (query parameters with chat text or
 * settings, row details, literal values quoted in messages). Every logger of the server is made here.
 */
import { pino, stdSerializers, type Logger, type LoggerOptions } from 'pino';

export const REDACTED = '[redacted]';

/** Path segments that are secrets: invitation ids in the API and in the web app's invitation page. */
const secretSegments = /(\/(?:api\/2\/channel-invites|channel-invite|api\/2\/channels\/[^/?#]*\/user-invites)\/)[^/?#]+/g;
/** Query parameters that carry secrets (OAuth callbacks land on web pages whose URLs are logged). */
const secretParams = new Set(['code', 'state', 'token', 'access_token', 'refresh_token', 'id_token', 'client_secret', 'code_verifier']);

/** A request URL with secret path segments and query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(secretSegments, `$1${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return eq !== -1 && secretParams.has(name.toLowerCase()) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Properties drivers put on errors that hold row data or query parameters (pg, PGlite, Drizzle). */
const dataProperties = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery', 'hint', 'values', 'body']);

/** `Failed query: … \nparams: …` (Drizzle) keeps the SQL text (placeholders only) and loses the parameters. */
function redactMessage(message: string): string {
  const params = message.indexOf('\nparams:');
  let head = message;
  if (params !== -1) {
    // In a stack the parameters end where the frames start.
    const frames = message.indexOf('\n    at ', params);
    head = `${message.slice(0, params)}\nparams: ${REDACTED}${frames === -1 ? '' : message.slice(frames)}`;
  }
  // PostgreSQL quotes the offending value in messages such as `invalid input syntax for type json: "…"`.
  return head.replace(/: "(?:[^"\\]|\\.)*"/g, `: "${REDACTED}"`);
}

type Serialized = Record<string, unknown>;

/** pino's error serializer, minus data: messages redacted, driver data properties dropped, causes included. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const base = stdSerializers.err(error) as Serialized;
  const out: Serialized = {};
  for (const [key, value] of Object.entries(base)) {
    if (dataProperties.has(key)) continue;
    if (key === 'message' && typeof value === 'string') out.message = redactMessage(value);
    else if (key === 'stack' && typeof value === 'string') out.stack = redactMessage(value);
    else if (key === 'cause' || key === 'query') continue;
    else out[key] = value;
  }
  const query: unknown = (error as Error & { query?: unknown }).query;
  if (typeof query === 'string') out.query = query;
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

interface RequestLike {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The request as logged: method, URL without secrets, host and client address. */
export function serializeRequest(request: RequestLike): Serialized {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The response as logged: its status. */
export function serializeResponse(reply: { statusCode: number }): Serialized {
  return { statusCode: reply.statusCode };
}

/** Options of the Fastify logger (request, response and error serializers). */
export function httpLoggerOptions(level: string): LoggerOptions {
  return { level, serializers: { req: serializeRequest, res: serializeResponse, err: serializeError } };
}

/** A named logger for services outside requests (platforms, chat). */
export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = { level, name, serializers: { err: serializeError, error: serializeError } };
  return destination ? pino(options, destination) : pino(options);
}
