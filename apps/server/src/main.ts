import 'dotenv/config';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { PlannerStatisticsJob } from './db/planner-statistics';
import { buildApp } from './app';
import { createServices, publicUrlOf } from './services';
import { joinCluster, singleInstance } from './cluster';
import { createLogger } from './lib/logging';
import { watchEventLoop } from './db/slow-log';
import { boundHeapGrowth, memoryReport } from './lib/memory-report';
import { oauthProviderIds } from '@greenroom/contracts/providers';
import { emulatorEndpoints, realEndpoints, type OAuthProvider, type PlatformEndpoints } from './platforms/endpoints';

/**
 * An initialised, migrated empty PGlite data directory made by the production build (apps/server/build.ts) beside
 * the bundle; a fresh DATA_DIR starts as a copy of it instead of running initdb. Absent when run from the sources.
 */
const pgliteTemplate = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-template');

/**
 * The gRPC streamList address of an emulator in its own process (from its config), on EMULATOR_URL's host; null when
 * it serves none (YouTube chat is then polled).
 */
async function emulatorYoutubeGrpc(origin: string): Promise<string | null> {
  const res = await fetch(`${origin}/_emulator/config`);
  if (!res.ok) return null;
  const config = (await res.json()) as { youtube?: { grpcAddress?: unknown } };
  const address = config.youtube?.grpcAddress;
  if (typeof address !== 'string') return null;
  const port = address.slice(address.lastIndexOf(':') + 1);
  return `${new URL(origin).hostname}:${port}`;
}

async function startPlatforms(
  config: Config,
): Promise<{ endpoints: PlatformEndpoints; emulatorUrl: string | null; close: () => Promise<void> }> {
  if (!config.useEmulator) return { endpoints: realEndpoints(config), emulatorUrl: null, close: async () => {} };
  const publicUrl = publicUrlOf(config);
  const apps = Object.fromEntries(
    oauthProviderIds.map((p) => [
      p,
      {
        clientId: `greenroom-${p}`,
        clientSecret: `greenroom-${p}-local-secret`,
        redirectUris: [`${publicUrl}/oauth/${p}`],
        // Kick delivers events to the app's one webhook URL (set in Kick's developer settings for real apps).
        webhookUrl: p === 'kick' ? `${publicUrl}/api/2/webhooks/kick` : null,
      },
    ]),
  ) as Record<OAuthProvider, { clientId: string; clientSecret: string; redirectUris: string[]; webhookUrl: string | null }>;
  if (config.EMULATOR_URL) {
    // An emulator in its own process: register this server's apps there (its control API).
    const origin = config.EMULATOR_URL.replace(/\/$/, '');
    for (const p of oauthProviderIds) {
      const res = await fetch(`${origin}/_emulator/apps/${p}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(apps[p]),
      });
      if (!res.ok) throw new Error(`The emulator at ${origin} refused the ${p} app (HTTP ${res.status})`);
    }
    process.env.TWURPLE_MOCK_API_PORT = new URL(origin).port;
    return { endpoints: emulatorEndpoints(origin, apps, await emulatorYoutubeGrpc(origin)), emulatorUrl: origin, close: async () => {} };
  }
  const { startEmulator } = await import('@greenroom/platform-emulator');
  const emulator = await startEmulator({ port: config.EMULATOR_PORT, apps, crowd: config.EMULATOR_CROWD });
  const endpoints = emulatorEndpoints(emulator.origin, apps, emulator.config.youtube.grpcAddress);
  process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
  return { endpoints, emulatorUrl: emulator.origin, close: () => emulator.close() };
}

/** Milliseconds since the process started (Node's time origin), for the startup report. */
const sinceStart = () => Math.round(performance.now());

async function main(): Promise<void> {
  // The heap's slack over what it holds: see lib/memory-report.ts.
  boundHeapGrowth();
  // Loading the code is the first part of the startup (the built bundle: a few hundred ms; tsx transpiling: seconds).
  const startup: Record<string, number> = { modules: sinceStart() };
  const timed = async <T>(part: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    startup[part] = Math.round(performance.now() - started);
    return result;
  };
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // DB_SLOW_MS: stalls of this thread logged (db/slow-log.ts).
  watchEventLoop();
  // The database (PGlite runs on this thread) and the emulator (its signing key is generated on the thread pool)
  // start side by side.
  const [database, platforms] = await Promise.all([
    timed('database', () => openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, template: pgliteTemplate })),
    timed('platforms', () => startPlatforms(config)),
  ]);
  const { services, app } = await timed('app', async () => {
    const clusterLog = createLogger(config.LOG_LEVEL, 'cluster');
    const cluster = config.REDIS_URL
      ? joinCluster({
          db: database.db,
          databaseUrl: config.DATABASE_URL,
          redisUrl: config.REDIS_URL,
          leaseMs: config.CLUSTER_LEASE_MS,
          log: clusterLog,
        })
      : singleInstance(clusterLog);
    const services = createServices({ config, database, endpoints: platforms.endpoints, emulatorUrl: platforms.emulatorUrl, cluster });
    const app = await buildApp(services);
    await app.ready();
    return { services, app };
  });
  services.chat.retention.start();
  services.stats.jobs.start();
  services.discord.job.start();
  // PostgreSQL's autovacuum keeps planner statistics fresh; the embedded database needs this job.
  const plannerStatistics = database.kind === 'pglite' ? new PlannerStatisticsJob(database.db, app.log) : null;
  plannerStatistics?.start();
  services.spotify.job.start();
  services.spotify.requestJob.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      plannerStatistics?.stop();
      await app.close();
      await services.chat.close();
      // Releases this instance's channels (the others take them at once) and closes Redis.
      await services.cluster.close();
      await services.bus.close();
      await platforms.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Where the resident memory is, on demand (`kill -USR2 <pid>`): one JSON line on stderr, whatever the log level.
  process.on('SIGUSR2', () => {
    void memoryReport(database.memory ?? null, services.ingest.writer.held).then(
      (memory) => process.stderr.write(`${JSON.stringify({ memory })}\n`),
      (error: unknown) => app.log.warn({ err: error }, 'memory report failed'),
    );
  });
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // Fastify's own line would name the bound address (http://127.0.0.1:3000); people open what the log shows, and
  // only PUBLIC_URL works for signing in (other hosts are redirected to it).
  await timed('listen', () =>
    app.listen({
      host: config.HOST,
      port: config.PORT,
      listenTextResolver: (address) => `Listening on ${address}; open Greenroom at ${services.publicUrl}`,
    }),
  );
  startup.ready = sinceStart();
  // Opens every stored platform connection this instance holds (closed by app.close() on shutdown); with several
  // instances, the channels are taken through leases and opened as they are taken.
  await services.connections.start();
  await services.cluster.start();
  // Compiles every connected channel's commands and filters, then runs the timers.
  await services.chatbot.start();
  await services.points.start();
  await services.games.loadAll();
  await services.giveaways.start();
  app.log.info(
    { startup },
    `Greenroom on ${services.publicUrl}${platforms.emulatorUrl ? ` — Local platforms (emulator) on ${platforms.emulatorUrl}` : ''} — database: ${database.kind} — answering ${startup.ready} ms after start`,
  );
}

void main();
