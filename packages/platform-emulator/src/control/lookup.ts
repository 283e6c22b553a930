import type { Account, Channel, Platform, World } from '../world';

export function findAccount(world: World, platform: Platform, idOrLogin: string): Account | undefined {
  return world.account(platform, idOrLogin) ?? world.accountByLogin(platform, idOrLogin.replace(/^@/, ''));
}

export function findChannel(world: World, platform: Platform, idOrLogin: string): Channel | undefined {
  const direct = world.channel(platform, idOrLogin);
  if (direct) return direct;
  const owner = findAccount(world, platform, idOrLogin);
  return owner ? world.channel(platform, owner.id) : undefined;
}

export function accountJson(a: Account): Record<string, unknown> {
  return {
    id: a.id,
    platform: a.platform,
    kind: a.kind,
    login: a.login,
    displayName: a.displayName,
    color: a.color,
    avatarUrl: a.avatarUrl,
    email: a.email,
    createdAt: a.createdAt.toISOString(),
    ...(a.premium !== undefined ? { premium: a.premium } : {}),
  };
}

export function channelJson(world: World, c: Channel): Record<string, unknown> {
  const owner = world.account(c.platform, c.id);
  return {
    id: c.id,
    platform: c.platform,
    login: owner?.login ?? null,
    displayName: owner?.displayName ?? null,
    title: c.title,
    categoryId: c.categoryId,
    categoryName: c.categoryName,
    live: c.live,
    startedAt: c.startedAt?.toISOString() ?? null,
    viewerCount: c.viewerCount,
    broadcastId: c.broadcastId,
    liveChatId: c.liveChatId,
    moderators: [...c.moderators],
    vips: [...c.vips],
    subscriberCount: c.subscribers.size,
    bans: [...c.bans.entries()].map(([userId, b]) => ({
      userId,
      expiresAt: b.expiresAt?.toISOString() ?? null,
      reason: b.reason,
      banId: b.banId,
    })),
  };
}
