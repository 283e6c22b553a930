import 'dotenv/config';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { createServices, publicUrlOf } from './services';
import { oauthProviderIds } from '@greenroom/contracts/providers';
import { emulatorEndpoints, realEndpoints, type OAuthProvider, type PlatformEndpoints } from './platforms/endpoints';

async function startPlatforms(
  config: Config,
): Promise<{ endpoints: PlatformEndpoints; emulatorUrl: string | null; close: () => Promise<void> }> {
  if (!config.useEmulator) return { endpoints: realEndpoints(config), emulatorUrl: null, close: async () => {} };
  const { startEmulator } = await import('@greenroom/platform-emulator');
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
  const emulator = await startEmulator({ port: config.EMULATOR_PORT, apps, crowd: config.EMULATOR_CROWD });
  const endpoints = emulatorEndpoints(emulator.origin, apps);
  process.env.TWURPLE_MOCK_API_PORT = String(emulator.port);
  return { endpoints, emulatorUrl: emulator.origin, close: () => emulator.close() };
}

async function main(): Promise<void> {
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
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const platforms = await startPlatforms(config);
  const services = createServices({ config, database, endpoints: platforms.endpoints, emulatorUrl: platforms.emulatorUrl });
  const app = await buildApp(services);
  services.chat.retention.start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await services.chat.close();
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
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.HOST, port: config.PORT });
  // Opens every stored platform connection (closed by app.close() on shutdown).
  await services.connections.start();
  app.log.info(
    `Greenroom on ${services.publicUrl}${platforms.emulatorUrl ? ` — Local platforms (emulator) on ${platforms.emulatorUrl}` : ''} — database: ${database.kind}`,
  );
}

void main();
