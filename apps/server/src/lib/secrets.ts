import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Returns the configured secret, or in embedded mode one generated once and kept in the data
 * directory (mode 0600), so restarts can still decrypt stored tokens and verify cookies.
 */
export function persistentSecret(configured: string | undefined, dataDir: string, name: string, bytes: number): string {
  if (configured) return configured;
  if (dataDir.startsWith('memory://')) return randomBytes(bytes).toString('base64');
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const value = randomBytes(bytes).toString('base64');
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}
