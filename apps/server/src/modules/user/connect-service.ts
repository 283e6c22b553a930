/**
 * `GET /api/2/{provider}/connect-chat-url`: which OAuth flow a "Connect" button starts — a system bot (operators),
 * a channel's platform or its bot account (channel Admins: `platforms.manage`), or a sign-in login linked to the
 * user — checked against the provider catalogue, with the scopes of that purpose.
 */
import { can } from '@greenroom/contracts/abilities';
import { isOAuthProviderId, providers, type ProviderId } from '@greenroom/contracts/providers';
import { badRequest, forbidden, notFound, unsupported } from '../../lib/errors';
import { scopesFor } from '../../platforms/scopes';
import type { AuthUser, FlowPurpose, OAuthFlows } from '../auth';

export interface ConnectUrlQuery {
  redirect_to: string;
  channel_id?: string | undefined;
  bot?: string | undefined;
  system_bot?: string | undefined;
}

export interface ConnectServiceDeps {
  flows: Pick<OAuthFlows, 'start'>;
  /** The user's level in a channel, or null without a role. */
  channelLevel(channelId: string, user: AuthUser): Promise<number | null>;
}

export class ConnectService {
  constructor(private readonly deps: ConnectServiceDeps) {}

  /** Starts the flow; answers the platform's authorization URL and the state for the flow cookie. */
  async connectUrl(user: AuthUser, provider: ProviderId, q: ConnectUrlQuery): Promise<{ url: string; state: string }> {
    const info = providers[provider];
    if (!q.redirect_to.startsWith('/') || q.redirect_to.startsWith('//'))
      throw badRequest('redirect_to must be a path on this site, starting with "/".');
    let purpose: FlowPurpose;
    if (q.system_bot === 'true') {
      if (!user.isOperator) throw forbidden('Only operators can connect system bots.');
      if (!info.systemBot) throw unsupported(`${info.name} has no system bot.`);
      purpose = 'system_bot';
    } else if (q.channel_id) {
      const level = await this.deps.channelLevel(q.channel_id, user);
      if (level == null) throw notFound('Channel not found');
      if (!can(level, 'platforms.manage')) throw forbidden('Only channel admins can manage platforms.');
      if (q.bot === 'true' && !info.ownBot) throw unsupported(`${info.name} does not support a channel bot account.`);
      if (!info.channelProvider) throw unsupported(`${info.name} cannot be connected to a channel.`);
      purpose = q.bot === 'true' ? 'channel_bot' : 'channel';
    } else {
      if (!info.signinProvider) throw unsupported(`${info.name} is not a sign-in platform.`);
      purpose = 'link';
    }
    if (!isOAuthProviderId(provider)) throw unsupported(`${info.name} cannot be connected.`);
    const scopes =
      purpose === 'link' ? scopesFor[provider].signin : purpose === 'channel' ? scopesFor[provider].channel : scopesFor[provider].bot;
    return this.deps.flows.start({
      purpose,
      provider,
      scopes,
      redirectTo: q.redirect_to,
      userId: user.id,
      channelId: q.channel_id,
      forceVerify: true,
    });
  }
}
