import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3200);
const emulatorPort = port + 1;

/** Browser tests: the real product (built web app + server + embedded database + emulator) in Debian's Chromium. */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  // A hung run fails instead of eating CI's time budget.
  globalTimeout: 30 * 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // The production server as `npm start` runs it: built JavaScript (the server build takes a second; the web app
    // is built by `npm run test:e2e`, or by hand with `npm run build -w @greenroom/web`).
    command: 'npm run build -w @greenroom/server && node --enable-source-maps apps/server/dist/main.js',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: 'memory://',
      EMULATOR: 'true',
      EMULATOR_PORT: String(emulatorPort),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // The emulator's seeded Twitch streamer `nightowlgg` (deterministic id, seed 1) is an operator (e2e/staff-access.spec.ts).
      GREENROOM_ADMINS: 'twitch:326571747',
    },
  },
});
