/** The games module: slots and roulette (settings with their odds, `!slots`, `!roulette`, `!odds`), paid from the points wallets. */
export { gamesRoutes, type GamesRouteDeps } from './routes';
export { GamesService, type GamesPoints, type GamesServiceDeps, type Game } from './games-service';
export { DbGameSettingsRepository, type GameSettingsRepository } from './game-settings-repository';
export { gamesBuiltins } from './builtins';
