import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { Link } from 'react-router';

export const PRODUCT_NAME = 'Greenroom';

/** The product logo and name; links to /. */
export function Logo({ textVisibleFrom }: { textVisibleFrom?: 'xs' | 'sm' | 'md' }) {
  return (
    <UnstyledButton component={Link} to="/" aria-label={`${PRODUCT_NAME} home`} style={{ borderRadius: 8 }}>
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size={28} radius="md" variant="gradient" gradient={{ from: 'teal.7', to: 'green.5', deg: 135 }} aria-hidden>
          <IconBroadcast size={18} stroke={2} />
        </ThemeIcon>
        <Text fw={700} size="lg" style={{ letterSpacing: '-0.01em' }} visibleFrom={textVisibleFrom}>
          {PRODUCT_NAME}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
