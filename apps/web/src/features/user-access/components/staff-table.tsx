import { ActionIcon, Avatar, Badge, Group, Select, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDoorExit, IconTrash } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useNavigate } from 'react-router';
import { AccessLevel, accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';
import type { Channel } from '@greenroom/contracts/api/channels';
import { assignableLevels, canManageMember, type StaffMember } from '@greenroom/contracts/api/staff';
import { RoleBadge } from '../../../components/role-badge';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useLeaveChannel } from '../../../api/leave-channel';
import { useRemoveStaff } from '../api/remove-staff';
import { useUpdateStaffLevel } from '../api/update-staff-level';
import { LEAVE_WITHOUT_ASKING } from '../../../components/unsaved-changes';
import 'mantine-datatable/styles.css';

interface StaffTableProps {
  channel: Channel;
  staff: StaffMember[];
  currentUserId: string;
  loading: boolean;
}

/** Staff of the channel: level (a select where the viewer may change it), who added them and when, remove / leave. */
export function StaffTable({ channel, staff, currentUserId, loading }: StaffTableProps) {
  const navigate = useNavigate();
  const actorLevel = channel.access_level;
  const update = useUpdateStaffLevel(channel.id);
  const remove = useRemoveStaff(channel.id);
  const leave = useLeaveChannel(channel.id);
  const owners = staff.filter((m) => m.level >= AccessLevel.OWNER).length;

  const confirmRemove = (member: StaffMember) =>
    modals.openConfirmModal({
      title: `Remove ${member.display_name}?`,
      centered: true,
      children: (
        <Text size="sm">
          {member.display_name} will lose their {accessLevelLabels[member.level]} access to {channel.display_name} at once.
        </Text>
      ),
      labels: { confirm: 'Remove access', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(member.user_id, { onSuccess: () => notifySuccess(`${member.display_name} no longer has access`) }),
    });

  const confirmLeave = () =>
    modals.openConfirmModal({
      title: `Leave ${channel.display_name}?`,
      centered: true,
      children: <Text size="sm">You will lose access to this channel. Someone has to invite you again to come back.</Text>,
      labels: { confirm: 'Leave channel', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        leave.mutate(undefined, {
          onSuccess: () => {
            notifySuccess(`You left ${channel.display_name}`);
            void navigate('/', { replace: true, state: LEAVE_WITHOUT_ASKING });
          },
        }),
    });

  const columns: DataTableColumn<StaffMember>[] = [
    {
      accessor: 'display_name',
      title: 'Member',
      render: (m) => (
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Avatar
            src={m.avatar_url}
            name={m.display_name}
            color="initials"
            size={30}
            radius="xl"
            style={{ flexShrink: 0 }}
            visibleFrom="xs"
          />
          <Text size="sm" fw={500} truncate>
            {m.display_name}
          </Text>
          {m.user_id === currentUserId && (
            <Badge size="xs" variant="outline" color="gray" style={{ flexShrink: 0 }}>
              You
            </Badge>
          )}
        </Group>
      ),
    },
    {
      accessor: 'level',
      title: 'Level',
      width: 136,
      render: (m) => {
        const self = m.user_id === currentUserId;
        if (self || !canManageMember(actorLevel, m.level)) return <RoleBadge level={m.level} />;
        const options = assignableLevels(actorLevel).map((l) => ({ value: String(l), label: accessLevelLabels[l] }));
        return (
          <Select
            aria-label={`Level of ${m.display_name}`}
            size="xs"
            w={110}
            data={options}
            value={String(m.level)}
            allowDeselect={false}
            disabled={update.isPending && update.variables.userId === m.user_id}
            onChange={(value) => {
              const level = Number(value) as AccessLevelValue;
              if (value && level !== m.level) {
                update.mutate(
                  { userId: m.user_id, level },
                  { onSuccess: (next) => notifySuccess(`${next.display_name} is now ${accessLevelLabels[next.level]}`) },
                );
              }
            }}
          />
        );
      },
    },
    {
      accessor: 'added_by',
      title: 'Added by',
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
      render: (m) =>
        m.added_by ? (
          <Text size="sm">{m.added_by.display_name}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            {m.level >= AccessLevel.OWNER ? 'Created the channel' : '—'}
          </Text>
        ),
    },
    {
      accessor: 'created_at',
      title: 'Added',
      width: 90,
      visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.xs})`,
      render: (m) => (
        <Tooltip label={formatDateTime(m.created_at)} withArrow>
          <Text size="sm" c="dimmed" component="time" dateTime={m.created_at}>
            {relativeTime(m.created_at)}
          </Text>
        </Tooltip>
      ),
    },
    {
      accessor: 'actions',
      title: <VisuallyHidden>Actions</VisuallyHidden>,
      textAlign: 'right',
      width: 56,
      render: (m) => {
        if (m.user_id === currentUserId) {
          const soleOwner = m.level >= AccessLevel.OWNER && owners <= 1;
          return soleOwner ? null : (
            <Tooltip label="Leave channel" withArrow>
              <ActionIcon variant="subtle" color="red" aria-label="Leave channel" onClick={confirmLeave} loading={leave.isPending}>
                <IconDoorExit size={16} />
              </ActionIcon>
            </Tooltip>
          );
        }
        if (!canManageMember(actorLevel, m.level)) return null;
        return (
          <Tooltip label={`Remove ${m.display_name}`} withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.display_name}`} onClick={() => confirmRemove(m)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        );
      },
    },
  ];

  return (
    <DataTable<StaffMember>
      aria-label="Staff"
      withTableBorder
      borderRadius="md"
      verticalAlign="center"
      idAccessor="user_id"
      records={staff}
      columns={columns}
      fetching={loading}
      minHeight={staff.length === 0 ? 160 : undefined}
      noRecordsText="No staff yet"
      // Fixed layout: long names truncate instead of pushing the level and actions off small screens.
      styles={{ table: { tableLayout: 'fixed' } }}
    />
  );
}
