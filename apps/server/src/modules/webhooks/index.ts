/** The webhooks module: platform webhook deliveries (Kick), verified and deduplicated. */
export { webhookRoutes, type WebhookRouteDeps } from './routes';
export { DbWebhookDeliveryStore } from './webhook-delivery-store';
