import { Button, Container, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartBar, IconLayoutDashboard, IconMessages, IconPlus, IconRobot, IconUsersGroup } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

const highlights: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <IconMessages size={20} />,
    title: 'One chat for every platform',
    text: 'Read Twitch, YouTube, Kick and TikTok chat side by side; time out, ban and delete messages from one place.',
  },
  {
    icon: <IconRobot size={20} />,
    title: 'A chatbot that follows you',
    text: 'Commands, timers, filters, quotes, points, slots, roulette, giveaways and a viewer queue.',
  },
  {
    icon: <IconLayoutDashboard size={20} />,
    title: 'Stream widgets',
    text: 'Overlays for your broadcast software, driven by what happens in chat.',
  },
  {
    icon: <IconChartBar size={20} />,
    title: 'Activity and stats',
    text: 'Follows, subs and raids in one feed, and how your streams are doing.',
  },
  { icon: <IconUsersGroup size={20} />, title: 'Your team', text: 'Give moderators and editors exactly the access they need.' },
];

/** `/welcome`: for a signed-in user without a channel yet — what Greenroom does, and the way to start. */
export function Welcome({ displayName }: { displayName: string }) {
  return (
    <Container size="md" py="xl" px="md">
      <Stack gap="xl">
        <Stack gap="xs">
          <Title order={1} fz={{ base: 28, sm: 34 }} style={{ wordBreak: 'break-word' }}>
            Welcome to Greenroom, {displayName}
          </Title>
          <Text c="dimmed" fz={{ base: 'md', sm: 'lg' }}>
            Greenroom is the backstage of your live streams: one dashboard for all your streaming platforms, your chat and your community.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {highlights.map((item) => (
            <Paper key={item.title} withBorder radius="md" p="md">
              <Group gap="sm" align="flex-start" wrap="nowrap">
                <ThemeIcon variant="light" color="teal" size={36} radius="md" aria-hidden>
                  {item.icon}
                </ThemeIcon>
                <div>
                  <Text fw={600}>{item.title}</Text>
                  <Text size="sm" c="dimmed">
                    {item.text}
                  </Text>
                </div>
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
        <Paper withBorder radius="md" p="lg" bg="var(--mantine-color-dark-6)">
          <Group justify="space-between" gap="md">
            <div>
              <Text fw={600}>Start with a channel</Text>
              <Text size="sm" c="dimmed">
                Create a channel, then connect your platforms to it.
              </Text>
            </div>
            <Button component={Link} to="/create-channel" size="md" leftSection={<IconPlus size={18} aria-hidden />}>
              Create channel
            </Button>
          </Group>
        </Paper>
      </Stack>
    </Container>
  );
}
