import { Container } from '@mantine/core';
import { CreateChannelForm } from '../../features/channels/components/create-channel-form';

/** `/create-channel`. */
export function Component() {
  return (
    <Container size="sm" py="xl" px="md">
      <CreateChannelForm />
    </Container>
  );
}
