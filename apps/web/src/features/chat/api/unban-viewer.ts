import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { moderationBase, type ModerationTarget } from './ban-viewer';

/** Lifts a ban or timeout. */
export function unbanViewer(target: ModerationTarget): Promise<void> {
  return api.delete(`${moderationBase(target)}/ban`, { query: { provider_viewer_id: target.providerViewerId } });
}

export function useUnbanViewer() {
  // useModeration shows the error once.
  return useMutation({ mutationFn: (target: ModerationTarget) => unbanViewer(target), meta: { errorToast: false } });
}
