import { isIP } from 'node:net';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** What Fastify's `trustProxy` gets: off, every proxy, a number of hops, or the proxies' addresses/CIDRs. */
export type TrustProxy = boolean | number | string[];

const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): TrustProxy => {
    const v = raw.trim().toLowerCase();
    if (v === '' || v === 'false' || v === '0') return false;
    if (v === 'true') return true;
    if (/^\d+$/.test(v)) return Number(v);
    const entries = v.split(',').map((e) => e.trim());
    for (const entry of entries) {
      const [address, bits, extra] = entry.split('/');
      const version = isIP(address ?? '');
      const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32));
      if (!version || !bitsOk || extra !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an IP address or CIDR range (use false, true, a hop count or addresses)`,
        });
        return z.NEVER;
      }
    }
    return entries;
  });

/** Platform app credentials; when every platform's are absent the local emulator runs instead. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public origin of the product as browsers reach it; used for OAuth redirect URIs. */
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** 32-byte key (base64 or hex) encrypting provider tokens; generated into DATA_DIR when absent in embedded mode. */
  ENCRYPTION_KEY: z.string().optional(),
  /** Secret signing cookies (anti-forgery, OAuth state); generated into DATA_DIR when absent. */
  COOKIE_SECRET: z.string().min(32).optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Comma-separated operators, e.g. `twitch:12345,kick:678`. */
  GREENROOM_ADMINS: z.string().default(''),
  CHAT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * Chat rows held in memory while the database does not take writes (a restart, an outage) before
   * what Twitch pushes is counted as lost (Kick and YouTube deliver again instead). About 1 KB each.
   */
  CHAT_HOLD_ROWS: z.coerce.number().int().min(1000).max(1_000_000).default(100_000),
  /** Force the emulator on/off; default: on when no platform credentials are set. */
  EMULATOR: bool.optional(),
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /**
   * An emulator already running in its own process (`npm run emulator`, on localhost) instead of one
   * started inside the server: it survives server restarts (the durability test, the benchmarks).
   * The server registers its apps there at start.
   */
  EMULATOR_URL: z.url().optional(),
  EMULATOR_CROWD: bool.default(true),
  TWITCH_CLIENT_ID: z.string().optional(),
  TWITCH_CLIENT_SECRET: z.string().optional(),
  YOUTUBE_CLIENT_ID: z.string().optional(),
  YOUTUBE_CLIENT_SECRET: z.string().optional(),
  /** The Google project's daily YouTube Data API quota (10,000 unless Google granted more). */
  YOUTUBE_DAILY_QUOTA: z.coerce.number().int().min(1).default(10_000),
  KICK_CLIENT_ID: z.string().optional(),
  KICK_CLIENT_SECRET: z.string().optional(),
  TIKTOK_CLIENT_KEY: z.string().optional(),
  TIKTOK_CLIENT_SECRET: z.string().optional(),
  TIKTOK_SIGN_API_KEY: z.string().optional(),
  SPOTIFY_CLIENT_ID: z.string().optional(),
  SPOTIFY_CLIENT_SECRET: z.string().optional(),
  DISCORD_CLIENT_ID: z.string().optional(),
  DISCORD_CLIENT_SECRET: z.string().optional(),
  REDIS_URL: z.string().optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * Reverse proxies whose `X-Forwarded-For` / `-Proto` / `-Host` are believed (client address for the per-IP
   * limits). Off by default: then the client address is the TCP peer and a forged header changes nothing.
   */
  TRUST_PROXY: trustProxy,
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  /** True when the platforms are served by the in-process emulator. */
  useEmulator: boolean;
  admins: { provider: string; providerUserId: string }[];
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; an invalid value throws naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const pairs: [string | undefined, string | undefined, string][] = [
    [e.TWITCH_CLIENT_ID, e.TWITCH_CLIENT_SECRET, 'TWITCH'],
    [e.YOUTUBE_CLIENT_ID, e.YOUTUBE_CLIENT_SECRET, 'YOUTUBE'],
    [e.KICK_CLIENT_ID, e.KICK_CLIENT_SECRET, 'KICK'],
    [e.TIKTOK_CLIENT_KEY, e.TIKTOK_CLIENT_SECRET, 'TIKTOK'],
    [e.SPOTIFY_CLIENT_ID, e.SPOTIFY_CLIENT_SECRET, 'SPOTIFY'],
    [e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, 'DISCORD'],
  ];
  for (const [id, secret, name] of pairs) {
    if (Boolean(id) !== Boolean(secret)) {
      const missing = id ? `${name}_CLIENT_SECRET` : name === 'TIKTOK' ? 'TIKTOK_CLIENT_KEY' : `${name}_CLIENT_ID`;
      throw new ConfigError(`Invalid configuration:\n  ${missing}: required when the other ${name} credential is set`);
    }
  }
  const anyCredentials = pairs.some(([id]) => Boolean(id));
  const admins = e.GREENROOM_ADMINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [provider, providerUserId] = entry.split(':');
      if (!provider || !providerUserId)
        throw new ConfigError(`Invalid configuration:\n  GREENROOM_ADMINS: "${entry}" is not provider:user-id`);
      return { provider, providerUserId };
    });
  return { ...e, useEmulator: e.EMULATOR ?? !anyCredentials, admins };
}
