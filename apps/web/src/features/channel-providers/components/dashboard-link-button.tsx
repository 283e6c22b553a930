import { Button, type ButtonProps } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ChannelProvider } from '@greenroom/contracts/api/channel-providers';
import { providers } from '@greenroom/contracts/providers';

/** The platform's own creator dashboard for this channel (the catalogue's dashboardUrl template), in a new tab. */
export function DashboardLinkButton({ provider: p, ...props }: { provider: ChannelProvider } & ButtonProps) {
  if (!p.dashboard_url) return null;
  return (
    <Button
      component="a"
      href={p.dashboard_url}
      target="_blank"
      rel="noopener noreferrer"
      size="xs"
      leftSection={<IconExternalLink size={14} />}
      {...props}
    >
      {providers[p.provider].name} dashboard
    </Button>
  );
}
