/** The per-emulator objects the server's routes share (no module-level state: several emulators can run in one process). */
import type { EmulatorClientConfig } from './config';
import type { EmulatorContext } from './context';
import type { Crowd } from './crowd/crowd';
import type { OAuthService } from './oauth/service';
import type { SeededRandom } from './random';
import type { TwitchState } from './twitch/plugin';

export interface EmulatorServices {
  ctx: EmulatorContext;
  /** The world's seeded random source (ctx.random draws from it). */
  random: SeededRandom;
  oauth: OAuthService;
  twitch: TwitchState;
  crowd: Crowd;
  /** Forget everything and seed the starting world again. */
  reset(): void;
  config(): EmulatorClientConfig;
}
