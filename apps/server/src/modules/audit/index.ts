/** The audit module: the per-channel audit log (AuditRecorder for features that record, routes for Admins). */
export { auditLogRoutes, type AuditLogRouteDeps } from './routes';
export { AuditLogService, type AuditEntryInput, type AuditRecorder } from './audit-log-service';
