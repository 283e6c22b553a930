import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageStateProps {
  icon: ReactNode;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  color?: string;
  /** Heading level of the title; pages use 1, sections 2 or 3. */
  order?: 1 | 2 | 3;
}

/** A centred empty / error / info state with an icon, a heading, a text and an optional action. */
export function PageState({ icon, title, description, action, color = 'gray', order = 2 }: PageStateProps) {
  return (
    <Center py="xl" px="md" mih={280}>
      <Stack align="center" gap="sm" maw={460} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color={color} aria-hidden>
          {icon}
        </ThemeIcon>
        <Title order={order} size="h3">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
        {action}
      </Stack>
    </Center>
  );
}
