/**
 * Platform webhooks: `POST /api/2/webhooks/kick`. Public (Kick calls it), rate-limit exempt, and the
 * body is kept raw (the signature covers the exact bytes): this route's scope parses every content
 * type as a string. Answers 2xx as soon as the delivery is verified, deduplicated and handed over.
 */
import type { FastifyInstance } from 'fastify';
import type { KickWebhookReceiver } from '../../platforms/kick/kick-webhook-receiver';

export interface WebhookRouteDeps {
  kickWebhooks: KickWebhookReceiver;
}

export function webhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, typeof body === 'string' ? body : body.toString('utf8'));
    });

    scope.post(
      '/api/2/webhooks/kick',
      { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
      async (request, reply) => {
        const raw = typeof request.body === 'string' ? request.body : '';
        const outcome = await deps.kickWebhooks.receive(request.headers, raw);
        return reply.code(200).send({ status: outcome });
      },
    );
  });
}
