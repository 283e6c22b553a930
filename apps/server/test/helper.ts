import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { oauthProviderIds } from '@greenroom/contracts/providers';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase } from '../src/db/client';
import { xsrfTokenFor } from '../src/plugins/auth';
import { createServices, type AppServices } from '../src/services';
import { emulatorEndpoints, realEndpoints, type OAuthProvider, type PlatformEndpoints } from '../src/platforms/endpoints';
import type { PlatformAdapterOptions } from '../src/platforms/registry';
import { newId } from '../src/lib/ids';

/**
 * Builds the real app on a fresh database: embedded PGlite in memory by default, or a new database
 * on the PostgreSQL server of `TEST_DATABASE_URL` (created here, dropped on close).
 */
export async function freshDatabase(through?: (url: URL) => URL) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { database: await openDatabase({ dataDir: 'memory://' }), drop: async () => {} };
  const name = `gr_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: (through ? through(url) : url).toString() });
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const testApps: Record<OAuthProvider, { clientId: string; clientSecret: string; redirectUris: string[] }> = Object.fromEntries(
  oauthProviderIds.map((p) => [
    p,
    { clientId: `test-${p}`, clientSecret: `test-${p}-secret`, redirectUris: [`http://localhost:3000/oauth/${p}`] },
  ]),
) as Record<OAuthProvider, { clientId: string; clientSecret: string; redirectUris: string[] }>;

export interface TestUser {
  id: string;
  displayName: string;
  token: string;
  sessionId: string;
  /** Headers a browser would send: bearer token, XSRF cookie and header. */
  headers: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  s: AppServices;
  config: Config;
  endpoints: PlatformEndpoints;
  /** Creates a user with a sign-in connection and a session, as if signed in through `provider`. */
  createUser(input?: { displayName?: string; provider?: OAuthProvider; providerUserId?: string; operator?: boolean }): Promise<TestUser>;
  headersFor(token: string, sessionId: string): Record<string, string>;
  inject(user: TestUser | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    endpoints?: PlatformEndpoints;
    emulatorOrigin?: string;
    /** The emulator's gRPC streamList address (YouTube chat streamed; without it, polled). */
    emulatorYoutubeGrpc?: string | null;
    /** Adds routes or hooks to the built app before it is made ready (gate tests). */
    configure?: (app: FastifyInstance) => void;
    /** Adapter timing overrides (e.g. fast YouTube offline polling). */
    platformOptions?: PlatformAdapterOptions;
    /** Serve a built web app from this folder (default: none). */
    webDist?: string;
    /** Log through this logger (default: no logging). */
    loggerInstance?: FastifyBaseLogger;
    /** PostgreSQL only: the URL the app connects with (e.g. through a proxy a test can cut). */
    databaseThrough?: (url: URL) => URL;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    PUBLIC_URL: 'http://localhost:3000',
    EMULATOR: 'true',
    ...options.env,
  });
  const { database, drop } = await freshDatabase(options.databaseThrough);
  const endpoints =
    options.endpoints ??
    (options.emulatorOrigin
      ? emulatorEndpoints(options.emulatorOrigin, testApps, options.emulatorYoutubeGrpc ?? null)
      : realEndpoints(config));
  const s = createServices({
    config,
    database,
    endpoints,
    emulatorUrl: options.emulatorOrigin ?? null,
    ...(options.platformOptions ? { platformOptions: options.platformOptions } : {}),
  });
  const app = await buildApp(s, {
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    webDist: options.webDist ?? null,
  });
  options.configure?.(app);
  await app.ready();

  const headersFor = (token: string, sessionId: string) => {
    const xsrf = xsrfTokenFor(s.cookieSecret, sessionId);
    return { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
  };

  let counter = 0;
  return {
    app,
    s,
    config,
    endpoints,
    headersFor,
    async createUser(input = {}) {
      counter += 1;
      const displayName = input.displayName ?? `User${counter}_${randomBytes(2).toString('hex')}`;
      const provider = input.provider ?? 'twitch';
      const user = await s.users.signIn(
        provider,
        { providerUserId: input.providerUserId ?? newId(), login: displayName.toLowerCase(), displayName, avatarUrl: null },
        { accessToken: 'a', refreshToken: 'r', expiresAt: null, scopes: [] },
      );
      if (input.operator) {
        const { users } = await import('../src/db/schema');
        const { eq } = await import('drizzle-orm');
        await s.db.update(users).set({ isOperator: true }).where(eq(users.id, user.id));
      }
      const session = await s.sessions.create(user.id);
      return {
        id: user.id,
        displayName,
        token: session.token,
        sessionId: session.sessionId,
        headers: headersFor(session.token, session.sessionId),
      };
    },
    inject(user, opts) {
      return app.inject({ ...opts, headers: { ...(user?.headers ?? {}), ...(opts.headers ?? {}) } });
    },
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
  };
}
