import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCrown } from '@tabler/icons-react';
import { AccessLevel } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { ErrorAlert } from '../../../components/error-alert';
import { RoleBadge } from '../../../components/role-badge';
import { useStaff } from '../api/get-staff';
import { AuditLogList } from './audit-log-list';
import { InvitationsPanel } from './invitations-panel';
import { StaffTable } from './staff-table';
import { TransferOwnershipModal } from './transfer-ownership-modal';

/** `/channels/{channelId}/user-access` (Admin+): staff, invitations and the audit log. */
export function UserAccessPage({ channel, currentUserId }: { channel: Channel; currentUserId: string }) {
  const staff = useStaff(channel.id);
  const [transferOpened, transfer] = useDisclosure(false);
  const isOwner = channel.access_level >= AccessLevel.OWNER;
  const members = staff.data ?? [];

  return (
    <Stack gap="lg" p={{ base: 'md', sm: 'lg' }} maw={1200}>
      <div>
        <Group gap="sm" align="center">
          <Title order={1} size="h2">
            User Access
          </Title>
          <RoleBadge level={channel.access_level} />
        </Group>
        <Text c="dimmed" size="sm">
          Give moderators, editors and admins access to {channel.display_name} without sharing passwords.
        </Text>
      </div>

      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="staff-title">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" gap="sm">
            <div>
              <Title order={2} size="h4" id="staff-title">
                Staff
              </Title>
              <Text size="sm" c="dimmed">
                Mods moderate chat, Editors also run the chatbot, widgets and stream info, Admins also manage platforms and access.
              </Text>
            </div>
            {isOwner && (
              <Button
                variant="light"
                color="orange"
                leftSection={<IconCrown size={16} />}
                onClick={transfer.open}
                disabled={!staff.isSuccess}
              >
                Transfer ownership
              </Button>
            )}
          </Group>
          {staff.isError ? (
            <ErrorAlert error={staff.error} />
          ) : (
            <StaffTable channel={channel} staff={members} currentUserId={currentUserId} loading={staff.isPending} />
          )}
        </Stack>
      </Paper>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
        <InvitationsPanel channel={channel} />
        <AuditLogList channelId={channel.id} />
      </SimpleGrid>

      {(isOwner || transferOpened) && (
        <TransferOwnershipModal
          channel={channel}
          staff={members}
          currentUserId={currentUserId}
          opened={transferOpened}
          onClose={transfer.close}
        />
      )}
    </Stack>
  );
}
