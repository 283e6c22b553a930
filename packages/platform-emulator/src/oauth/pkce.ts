import { createHash } from 'node:crypto';

export type PkceMethod = 'S256' | 'plain';

/** RFC 7636: verifier is 43–128 characters of [A-Za-z0-9-._~]. */
export function isValidVerifier(verifier: string): boolean {
  return /^[A-Za-z0-9\-._~]{43,128}$/.test(verifier);
}

export function challengeFor(verifier: string, method: PkceMethod): string {
  return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}

export function verifyPkce(verifier: string, challenge: string, method: PkceMethod): boolean {
  return isValidVerifier(verifier) && challengeFor(verifier, method) === challenge;
}
