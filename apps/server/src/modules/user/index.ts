/** The user module: the signed-in user, their sign-in connections, settings, account deletion and connect URLs. */
export { userRoutes, toUserProvider, type UserRouteDeps } from './routes';
export { UserService, type UserProviderRow, type UserRow, type UserServiceDeps } from './user-service';
export { ConnectService, type ConnectServiceDeps } from './connect-service';
