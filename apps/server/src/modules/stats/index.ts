/** The stats module: rollups written as chat and events arrive (jobs), and the stats page's and dashboard's reads. */
export { statsRoutes, type StatsRouteDeps } from './routes';
export { StatsQueries, bucketSeconds } from './stats-queries';
export { StatsJobs, StatsRollup, type StatsJobsOptions } from './stats-rollup';
