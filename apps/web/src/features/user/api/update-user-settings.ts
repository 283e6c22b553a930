import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userSettingsSchema, type UserSettings } from '@greenroom/contracts/api/user';
import { api } from '../../../lib/api-client';
import { getUserSettingsQueryOptions } from './get-user-settings';

export function updateUserSettings(settings: UserSettings): Promise<UserSettings> {
  return api.put('/api/2/user/settings', settings, { schema: userSettingsSchema });
}

/**
 * Saves the user settings: the change is applied to the cache first, then sent whole.
 * Pass a partial object; it is merged into the cached settings. On failure the cache rolls back.
 */
export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  const { queryKey } = getUserSettingsQueryOptions();
  return useMutation({
    mutationFn: (patch: UserSettings) => updateUserSettings({ ...(queryClient.getQueryData(queryKey) ?? {}), ...patch }),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, { ...(previous ?? {}), ...patch });
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (context) queryClient.setQueryData(queryKey, context.previous);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKey, saved);
    },
  });
}
