/** The staff module: channel staff levels, invitations and ownership transfer. */
export { staffRoutes, type StaffRouteDeps } from './routes';
export { StaffService } from './staff-service';
export { InviteService, inviteState } from './invite-service';
