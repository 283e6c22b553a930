import { Badge, type BadgeProps } from '@mantine/core';
import { providers, type ProviderId } from '@greenroom/contracts/providers';
import { ProviderIcon } from './provider-icon';

/** A platform tag in the platform's colour: icon, and the given label or the platform name. */
export function ProviderBadge({
  provider,
  label,
  ...props
}: { provider: ProviderId; label?: string } & Omit<BadgeProps, 'color' | 'leftSection'>) {
  const info = providers[provider];
  return (
    <Badge
      color={info.color}
      variant="light"
      leftSection={<ProviderIcon provider={provider} size={14} />}
      tt="none"
      title={label ? `${info.name}: ${label}` : info.name}
      {...props}
    >
      {label ?? info.name}
    </Badge>
  );
}
