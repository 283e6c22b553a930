/** HTTP routes of every platform's OAuth server (authorize page, token, revoke, Twitch validate) and the test-only authorize endpoint. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { authorizationCredentials, isJsonContentType, stringRecord } from '../http/params';
import { platforms, type Platform } from '../world';
import { consentPage, decodeRequest, errorPage } from './authorize-page';
import type { AccountChoice, AuthorizeRequest, ClientCredentials, OAuthService } from './service';
import { oauthSpecs, tokenError, type OAuthSpec } from './specs';

function authorizeRequest(spec: OAuthSpec, query: Record<string, string | undefined>): AuthorizeRequest {
  return {
    platform: spec.platform,
    clientId: query[spec.clientIdParam] ?? '',
    redirectUri: query.redirect_uri ?? '',
    responseType: query.response_type ?? '',
    scope: query.scope ?? '',
    state: query.state ?? null,
    codeChallenge: query.code_challenge ?? null,
    codeChallengeMethod: query.code_challenge_method ?? null,
    accessType: query.access_type ?? null,
  };
}

function clientCredentials(spec: OAuthSpec, request: FastifyRequest, params: Record<string, string | undefined>): ClientCredentials {
  const basic = authorizationCredentials(request.headers.authorization, ['basic']);
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0)
      return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return { clientId: params[spec.clientIdParam], clientSecret: params.client_secret };
}

/** Token-endpoint parameters with each platform's encoding rules; null when the encoding is refused. */
function tokenParams(spec: OAuthSpec, request: FastifyRequest): Record<string, string | undefined> | null {
  const json = isJsonContentType(request.headers['content-type']);
  if (json && !spec.acceptsJsonBody) return null;
  const body = stringRecord(request.body);
  return spec.acceptsQueryParams ? { ...stringRecord(request.query), ...body } : body;
}

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

const testAuthorizeBody = z.object({
  platform: z.enum(platforms as [Platform, ...Platform[]]),
  client_id: z.string().optional(),
  redirect_uri: z.string().optional(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  state: z.string().optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
  access_type: z.string().optional(),
  account_id: z.string().optional(),
  account_login: z.string().optional(),
  display_name: z.string().optional(),
  deny: z.boolean().optional(),
});

export async function oauthRoutes(app: FastifyInstance, ctx: EmulatorContext, oauth: OAuthService): Promise<void> {
  for (const platform of platforms) {
    const spec = oauthSpecs[platform];

    app.get(spec.authorizePath, async (request, reply) => {
      const query = stringRecord(request.query);
      const req = authorizeRequest(spec, query);
      const check = oauth.check(req);
      if (!check.ok)
        return check.kind === 'page'
          ? sendHtml(reply, 400, errorPage(spec, check.title, check.message))
          : reply.redirect(check.redirectUrl, 302);
      const auto = query.emulator_account;
      if (auto) {
        const account = oauth.resolveAccount(platform, { login: auto }) ?? oauth.resolveAccount(platform, { accountId: auto });
        if (!account)
          return sendHtml(reply, 400, errorPage(spec, 'Unknown account', `emulator_account "${auto}" does not exist on ${spec.label}.`));
        return reply.redirect(oauth.approve(req, account).redirectUrl, 302);
      }
      return sendHtml(reply, 200, consentPage(spec, req, check.scopes, ctx.world.accountsOf(platform)));
    });

    for (const path of spec.tokenPaths) {
      app.post(path, async (request, reply) => {
        const params = tokenParams(spec, request);
        if (params === null) {
          const e = tokenError(platform, 'unsupported_content_type');
          return reply.code(e.status).send(e.body);
        }
        const result = oauth.exchange(platform, params, clientCredentials(spec, request, params));
        reply.header('cache-control', 'no-store');
        return result.ok ? reply.code(200).send(result.body) : reply.code(result.error.status).send(result.error.body);
      });
    }

    if (spec.revokePath) {
      app.post(spec.revokePath, async (request, reply) => {
        const params = { ...stringRecord(request.query), ...stringRecord(request.body) };
        const creds = clientCredentials(spec, request, params);
        const error = oauth.revoke(platform, params.token, creds);
        if (error) return reply.code(error.status).send(error.body);
        if (platform === 'discord' || platform === 'tiktok') return reply.code(200).send({});
        return reply.code(200).send();
      });
    }
  }

  // Twitch: GET /oauth2/validate with `Authorization: OAuth <token>`.
  app.get('/auth/validate', async (request, reply) => {
    const accessToken = authorizationCredentials(request.headers.authorization, ['oauth', 'bearer']);
    if (!accessToken) return reply.code(401).send({ status: 401, message: 'missing authorization token' });
    const check = ctx.world.checkToken('twitch', accessToken);
    if (!check.ok) return reply.code(401).send({ status: 401, message: 'invalid access token' });
    const { token } = check;
    const expiresIn = Math.max(0, Math.floor((token.expiresAt.getTime() - Date.now()) / 1000));
    if (token.userId === null) return reply.send({ client_id: token.clientId, scopes: token.scopes, expires_in: expiresIn });
    const account = ctx.world.account('twitch', token.userId);
    return reply.send({
      client_id: token.clientId,
      login: account?.login ?? '',
      scopes: token.scopes,
      user_id: token.userId,
      expires_in: expiresIn,
    });
  });

  // The consent form posts here.
  app.post('/_emulator/oauth/consent', async (request, reply) => {
    const form = stringRecord(request.body);
    const req = form.request ? decodeRequest(form.request) : undefined;
    if (!req || !platforms.includes(req.platform)) return sendHtml(reply, 400, '<p>Malformed consent form.</p>');
    const spec = oauthSpecs[req.platform];
    const check = oauth.check(req);
    if (!check.ok)
      return check.kind === 'page'
        ? sendHtml(reply, 400, errorPage(spec, check.title, check.message))
        : reply.redirect(check.redirectUrl, 303);
    if (form.decision !== 'allow') return reply.redirect(oauth.deny(req), 303);
    const choice: AccountChoice =
      form.account === 'new' || !form.account ? { newDisplayName: form.display_name ?? '' } : { accountId: form.account };
    const account = oauth.resolveAccount(req.platform, choice);
    if (!account)
      return sendHtml(
        reply,
        400,
        consentPage(
          spec,
          req,
          check.scopes,
          ctx.world.accountsOf(req.platform),
          'Pick an account or enter a display name for the new one.',
        ),
      );
    return reply.redirect(oauth.approve(req, account).redirectUrl, 303);
  });

  // Non-interactive authorize for server tests: same checks as the page, returns the redirect with the code.
  app.post('/_emulator/oauth/authorize', async (request, reply) => {
    const parsed = testAuthorizeBody.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ error: 'invalid_body', message: parsed.error.message });
    const b = parsed.data;
    const spec = oauthSpecs[b.platform];
    const registered = oauth.app(b.platform);
    const req: AuthorizeRequest = {
      platform: b.platform,
      clientId: b.client_id ?? registered?.clientId ?? '',
      redirectUri: b.redirect_uri ?? registered?.redirectUris[0] ?? '',
      responseType: 'code',
      scope: Array.isArray(b.scope) ? b.scope.join(spec.scopeSeparator) : (b.scope ?? ''),
      state: b.state ?? null,
      codeChallenge: b.code_challenge ?? null,
      codeChallengeMethod: b.code_challenge_method ?? (b.code_challenge ? 'S256' : null),
      accessType: b.access_type ?? (b.platform === 'youtube' ? 'offline' : null),
    };
    const check = oauth.check(req);
    if (!check.ok) {
      return check.kind === 'page'
        ? reply.code(400).send({ error: 'authorize_rejected', message: `${check.title}: ${check.message}` })
        : reply.code(200).send({ redirect_url: check.redirectUrl, code: null, account: null });
    }
    if (b.deny) return reply.send({ redirect_url: oauth.deny(req), code: null, account: null });
    const choice: AccountChoice | undefined = b.account_id
      ? { accountId: b.account_id }
      : b.account_login
        ? { login: b.account_login }
        : b.display_name
          ? { newDisplayName: b.display_name }
          : undefined;
    const account = choice ? oauth.resolveAccount(b.platform, choice) : undefined;
    if (!account)
      return reply
        .code(404)
        .send({ error: 'unknown_account', message: 'Give account_id, account_login (existing) or display_name (new account).' });
    const { code, redirectUrl } = oauth.approve(req, account);
    return reply.send({
      redirect_url: redirectUrl,
      code,
      account: { id: account.id, login: account.login, display_name: account.displayName },
    });
  });
}
