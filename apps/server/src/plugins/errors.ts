import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { assertUnreachable } from '@greenroom/contracts/providers';
import type { ErrorBody, ErrorType, FieldErrors } from '@greenroom/contracts/errors';
import { AppError } from '../lib/errors';
import { PlatformError, type PlatformErrorCode } from '../platforms/platform-error';

/**
 * The HTTP answer of each platform error code — the only place it is decided. A platform that must be
 * reconnected is a 409 `reconnect_required`, never a 401: the web app signs the user out on a 401.
 */
export function platformErrorHttp(code: PlatformErrorCode): { status: number; type: ErrorType } {
  switch (code) {
    case 'temporary':
      return { status: 502, type: 'provider_error' };
    case 'rate_limited':
      return { status: 429, type: 'rate_limited' };
    case 'auth_revoked':
    case 'insufficient_scope':
      return { status: 409, type: 'reconnect_required' };
    case 'not_found':
      return { status: 404, type: 'not_found' };
    case 'refused':
      return { status: 422, type: 'provider_refused' };
    default:
      return assertUnreachable(code);
  }
}

/** An error as the API answers it: status and `{ type, message }` (for per-item results such as one platform's). */
export interface ErrorBodyOf {
  status: number;
  type: ErrorType;
  message: string;
}

const internal: ErrorBodyOf = { status: 500, type: 'internal_error', message: 'Something went wrong on our side.' };

/** The status and body the API gives for an AppError or PlatformError; anything else is an internal error. */
export function errorBodyOf(error: unknown): ErrorBodyOf {
  if (error instanceof AppError) return { status: error.status, type: error.type, message: error.message };
  if (error instanceof PlatformError) return { ...platformErrorHttp(error.code), message: error.message };
  return internal;
}

function sendPlatformError(reply: FastifyReply, error: PlatformError): FastifyReply {
  const { status, type, message } = errorBodyOf(error);
  if (error.retryAfterSeconds !== null) void reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.status(status).send({ type, message });
}

/** The first message for each field path of a failed schema validation (`/a/0/b` → `a.0.b`); issues about the whole object have no field. */
export function fieldErrorsOf(issues: readonly { instancePath: string; message?: string }[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (path && !(path in fields)) fields[path] = issue.message ?? 'Invalid value';
  }
  return fields;
}

/** What Fastify's own refusals (bad URL encoding, an over-long path parameter, …) say to the caller. */
function frameworkMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return 'The address is not valid: it has broken percent-encoding.';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'A part of the address is too long.';
    default:
      return 'The request could not be understood.';
  }
}

/**
 * Fastify's `frameworkErrors` option: refusals made before a route runs (bad percent-encoding → 400,
 * a path parameter over the length limit → 414) answer with the same `{ type, message }` body as the rest.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const body: ErrorBody = { type: 'bad_request', message: frameworkMessage(error) };
  void reply.status(status).send(body);
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refuses before Fastify sees them
 * (headers too large → 431, timeouts → 408, malformed requests → 400) get a `{ type, message }` body too.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : error.code === 'HPE_URI_TOO_LONG'
          ? [414, 'URI Too Long', 'The address is too long.']
          : [400, 'Bad Request', 'The request could not be understood.'];
  const body = JSON.stringify({ type: 'bad_request', message } satisfies ErrorBody);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Maps every failure to a `{ type, message }` body; 5xx never leak internals. (404s: see app.ts.) */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.status).send({ type: error.type, message: error.message, ...(error.fields && { fields: error.fields }) });
    }
    if (error instanceof PlatformError) {
      if (error.code === 'temporary') request.log.warn({ err: error }, 'platform call failed');
      return sendPlatformError(reply, error);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = error.validationContext ?? 'request';
      const field = issue?.instancePath ? issue.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
      const message = issue ? `Invalid ${where}${field ? ` field "${field}"` : ''}: ${issue.message}` : `Invalid ${where}`;
      // Field paths for what a form sends (body, query); route parameters are not fields of a form.
      const fields = where === 'body' || where === 'querystring' ? fieldErrorsOf(error.validation) : {};
      return reply.status(400).send({ type: 'validation_error', message, ...(Object.keys(fields).length > 0 && { fields }) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ type: 'internal_error', message: 'Something went wrong on our side.' });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) return reply.status(429).send({ type: 'rate_limited', message: 'Too many requests, slow down a little.' });
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ type: status === 404 ? 'not_found' : 'bad_request', message: error.message });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({ type: 'internal_error', message: 'Something went wrong on our side.' });
  });
}
