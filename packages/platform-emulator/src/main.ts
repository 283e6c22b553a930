/** `npm run emulator`: the emulator on its own port (EMULATOR_PORT, default 3001). */
import { startEmulator } from './index';

const port = Number(process.env.EMULATOR_PORT ?? 3001);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`EMULATOR_PORT must be a port number, got "${process.env.EMULATOR_PORT}"`);
  process.exit(1);
}
const crowd = process.env.EMULATOR_CROWD !== 'false' && process.env.EMULATOR_CROWD !== '0';
const seed = process.env.EMULATOR_SEED ? Number(process.env.EMULATOR_SEED) : undefined;
const youtubeGrpcPort = Number(process.env.EMULATOR_YOUTUBE_GRPC_PORT ?? 0);
if (!Number.isInteger(youtubeGrpcPort) || youtubeGrpcPort < 0 || youtubeGrpcPort > 65535) {
  console.error(`EMULATOR_YOUTUBE_GRPC_PORT must be a port number, got "${process.env.EMULATOR_YOUTUBE_GRPC_PORT}"`);
  process.exit(1);
}
const emulator = await startEmulator({
  port,
  crowd,
  youtubeGrpcPort,
  ...(seed !== undefined ? { seed } : {}),
  // The redirect URIs registered by default: the product's PUBLIC_URL only.
  ...(process.env.PUBLIC_URL ? { productUrl: process.env.PUBLIC_URL } : {}),
  logger: process.env.EMULATOR_LOG === 'true',
});
console.log(`Greenroom platform emulator on ${emulator.origin} (control page: ${emulator.origin}/_emulator/)`);
console.log(JSON.stringify(emulator.config, null, 2));

const shutdown = () => {
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
