import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorMessage, UNKNOWN_ERROR } from './error-message';

describe('errorMessage fallback chain', () => {
  const apiError = new ApiError(400, 'bad_request', 'from error', { type: 'bad_request', message: 'from body' });

  it('prefers the explicit message', () => {
    expect(errorMessage(apiError, 'explicit')).toBe('explicit');
  });

  it('then the message of the response body', () => {
    expect(errorMessage(apiError)).toBe('from body');
    expect(errorMessage({ response: { data: { message: 'axios-like body' } }, message: 'own' })).toBe('axios-like body');
  });

  it("then the error's own message", () => {
    expect(errorMessage(new ApiError(500, 'http_error', 'own message', 'not json'))).toBe('own message');
    expect(errorMessage(new Error('plain'))).toBe('plain');
    expect(errorMessage('a string')).toBe('a string');
  });

  it('else "Unknown error"', () => {
    expect(errorMessage(undefined)).toBe(UNKNOWN_ERROR);
    expect(errorMessage(new Error(''))).toBe(UNKNOWN_ERROR);
    expect(errorMessage({}, '  ')).toBe(UNKNOWN_ERROR);
  });
});
