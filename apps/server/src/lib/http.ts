import { z } from 'zod';
import { errorBodySchema } from '@greenroom/contracts/errors';

/** Error responses every route may give, for the OpenAPI document. */
export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  410: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
} as const;

export const noContent = { 204: z.null().describe('No content') } as const;

/** A same-origin path or the fallback (never an absolute URL: no open redirects). */
export function safePath(value: string | undefined | null, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
