/** The admin module: the operators' list of every channel. */
export { adminRoutes, type AdminRouteDeps } from './routes';
