import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adjustBodySchema,
  identityParamsSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  pointSettingsSchema,
  walletListQuerySchema,
  walletListSchema,
  walletParamsSchema,
  walletSchema,
  viewerWalletParamsSchema,
  viewerWalletSchema,
} from '@greenroom/contracts/api/points';
import { requireAuth } from '../../plugins/auth';
import { channelAccess } from '../../lib/access';
import { errorResponses } from '../../lib/http';
import { notFound } from '../../lib/errors';
import type { PointsService } from './points-service';

export interface PointsRouteDeps {
  points: PointsService;
}

const channelParams = z.object({ channelId: z.string().max(64) });
const editor = { access: channelAccess('games.manage') };
const tags = ['points'];

/**
 * Points settings, the leaderboard, a viewer's ledger, staff adjustments and unlinking (Editors); a
 * viewer's wallet and linked accounts for the viewer card (Mods, who read viewer cards).
 */
export function pointsRoutes(app: FastifyInstance, deps: PointsRouteDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { points } = deps;

  r.get('/api/2/channels/:channelId/points/settings', {
    config: editor,
    schema: { tags, params: channelParams, response: { 200: pointSettingsSchema, ...errorResponses } },
    handler: async (request) => points.settings(request.params.channelId),
  });

  r.put('/api/2/channels/:channelId/points/settings', {
    config: editor,
    schema: { tags, params: channelParams, body: pointSettingsSchema, response: { 200: pointSettingsSchema, ...errorResponses } },
    handler: async (request) => points.saveSettings(request.params.channelId, request.body, requireAuth(request).user.id),
  });

  r.get('/api/2/channels/:channelId/points/wallets', {
    config: editor,
    schema: { tags, params: channelParams, querystring: walletListQuerySchema, response: { 200: walletListSchema, ...errorResponses } },
    handler: async (request) => points.list(request.params.channelId, request.query),
  });

  r.get('/api/2/channels/:channelId/points/wallets/:walletId', {
    config: editor,
    schema: { tags, params: walletParamsSchema, response: { 200: walletSchema, ...errorResponses } },
    handler: async (request) => points.wallet(request.params.channelId, request.params.walletId),
  });

  r.get('/api/2/channels/:channelId/points/wallets/:walletId/ledger', {
    config: editor,
    schema: { tags, params: walletParamsSchema, querystring: ledgerQuerySchema, response: { 200: ledgerPageSchema, ...errorResponses } },
    handler: async (request) => points.ledger(request.params.channelId, request.params.walletId, request.query),
  });

  r.post('/api/2/channels/:channelId/points/wallets/:walletId/adjust', {
    config: editor,
    schema: { tags, params: walletParamsSchema, body: adjustBodySchema, response: { 200: walletSchema, ...errorResponses } },
    handler: async (request) =>
      points.adjust(request.params.channelId, request.params.walletId, request.body, requireAuth(request).user.id),
  });

  /** The wallet of a viewer's platform account and every account linked to it (the viewer card). */
  r.get('/api/2/channels/:channelId/points/viewers/:provider/:providerUserId', {
    config: { access: channelAccess('chat.moderate') },
    schema: { tags, params: viewerWalletParamsSchema, response: { 200: viewerWalletSchema, ...errorResponses } },
    handler: async (request) => {
      const { channelId, provider, providerUserId } = request.params;
      const wallet = await points.viewerWallet(channelId, provider, providerUserId);
      if (!wallet) throw notFound('This viewer has no points here.');
      return wallet;
    },
  });

  /** Takes one platform account off a shared wallet. */
  r.delete('/api/2/channels/:channelId/points/wallets/:walletId/identities/:provider/:providerUserId', {
    config: editor,
    schema: { tags, params: identityParamsSchema, response: { 200: walletSchema, ...errorResponses } },
    handler: async (request) => {
      const { channelId, walletId, provider, providerUserId } = request.params;
      return points.unlink(channelId, walletId, provider, providerUserId, requireAuth(request).user.id);
    },
  });
}
