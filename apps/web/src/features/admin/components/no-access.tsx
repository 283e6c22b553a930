import { Button } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageState } from '../../../components/page-state';

/** What a non-operator sees in the admin area (the server answers 403 to every admin call). */
export function NoAccess() {
  return (
    <PageState
      order={1}
      color="red"
      icon={<IconLock size={28} />}
      title="You do not have access"
      description="The admin area is for Greenroom operators only. If you think you should have access, ask an operator."
      action={
        <Button component={Link} to="/" variant="light">
          Go to your channels
        </Button>
      }
    />
  );
}
