/** All tables; each feature keeps its own file under schema/. Migrations: `npm run db:generate`. */
export * from './schema/core';
export * from './schema/staff';
export * from './schema/platforms';
export * from './schema/webhooks';
export * from './schema/chat';
export * from './schema/pipeline';
export * from './schema/chatbot';
export * from './schema/widgets';
export * from './schema/stats';
export * from './schema/points';
export * from './schema/games';
export * from './schema/giveaways';
export * from './schema/queues';
export * from './schema/cluster';
export * from './schema/discord';
export * from './schema/spotify';
