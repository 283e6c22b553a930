/**
 * The servers bench/scale.ts measures, each in its own process: `tsx bench/scale-server.ts` — the product's whole
 * HTTP app (every plugin, hook and route, pino logging at info to /dev/null, rate limiting on with a limit no bench
 * reaches) on the database of DATA_DIR or DATABASE_URL, without platform connections; `… bare` — a bare Fastify
 * hello-world answering /api/health, the ceiling.
 */
import Fastify from 'fastify';
import pino from 'pino';

const port = Number(process.env.PORT);

if (process.argv[2] === 'bare') {
  const app = Fastify();
  app.get('/api/health', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port });
} else {
  const { loadConfig } = await import('../apps/server/src/config');
  const { openDatabase } = await import('../apps/server/src/db/client');
  const { createServices } = await import('../apps/server/src/services');
  const { buildApp } = await import('../apps/server/src/app');
  const { httpLoggerOptions } = await import('../apps/server/src/lib/logging');
  const { realEndpoints } = await import('../apps/server/src/platforms/endpoints');
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const services = createServices({ config, database, endpoints: realEndpoints(config), emulatorUrl: null });
  const app = await buildApp(services, { loggerInstance: pino(httpLoggerOptions('info'), pino.destination('/dev/null')), webDist: null });
  await app.listen({ host: '127.0.0.1', port });
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
}
