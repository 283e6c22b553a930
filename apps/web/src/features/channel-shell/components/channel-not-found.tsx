import { Button } from '@mantine/core';
import { IconMoodEmpty } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageState } from '../../../components/page-state';
import { useDocumentTitle } from '../../../lib/document-title';

/** Shown when no channel matches the route. */
export function ChannelNotFound({ message = 'Channel not found' }: { message?: string }) {
  useDocumentTitle(message);
  return (
    <PageState
      order={1}
      icon={<IconMoodEmpty size={30} />}
      title={message}
      description="It may have been deleted, or you may not be part of its team."
      action={
        <Button component={Link} to="/" variant="light">
          Go to your channels
        </Button>
      }
    />
  );
}
