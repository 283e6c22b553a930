import { queryOptions, useQuery } from '@tanstack/react-query';
import { userSettingsSchema, type UserSettings } from '@greenroom/contracts/api/user';
import { api } from '../../../lib/api-client';

export function getUserSettings(signal?: AbortSignal): Promise<UserSettings> {
  return api.get('/api/2/user/settings', { schema: userSettingsSchema, signal });
}

export function getUserSettingsQueryOptions() {
  return queryOptions({ queryKey: ['user', 'settings'], queryFn: ({ signal }) => getUserSettings(signal), meta: { errorToast: false } });
}

export function useUserSettings() {
  return useQuery(getUserSettingsQueryOptions());
}
