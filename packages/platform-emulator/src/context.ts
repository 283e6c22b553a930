import type { World } from './world';

/** A client application registered with a simulated platform (like an app in Twitch's developer console). */
export interface RegisteredApp {
  clientId: string;
  clientSecret: string;
  /** Exact redirect URIs accepted by the authorize and token endpoints. */
  redirectUris: string[];
  /** Kick: the app's webhook URL (set once per app in Kick's developer settings). */
  webhookUrl?: string | null;
  /** Overrides the platform's access-token lifetime (seconds) for tokens issued to this app (expiry tests). */
  accessTokenTtlSeconds?: number | null;
}

/** What every platform plugin gets. */
export interface EmulatorContext {
  world: World;
  /** Registered apps per platform. */
  apps: Record<string, RegisteredApp>;
  /** The emulator's own origin, e.g. http://127.0.0.1:3001 (known once listening). */
  origin(): string;
  /** Deterministic random source (seeded). */
  random(): number;
}
