import { Badge } from '@mantine/core';
import { accessLevelLabels, type AccessLevelValue } from '@greenroom/contracts/access';

const colors: Record<AccessLevelValue, string> = { 0: 'gray', 1: 'gray', 2: 'gray', 7: 'blue', 100: 'cyan', 200: 'violet', 500: 'teal' };

/** The caller's role in a channel (its access level). */
export function RoleBadge({ level }: { level: AccessLevelValue }) {
  return (
    <Badge color={colors[level]} variant="light" size="sm">
      {accessLevelLabels[level]}
    </Badge>
  );
}
