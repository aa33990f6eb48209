import { useQuery } from '@tanstack/react-query';
import type { OptionLists } from '../../../common/schemas/maintenance';
import type { ChangePasswordInput, Profile, ProfileFormValues } from '../../../common/schemas/profile';
import type {
  RecoveryCodesResult,
  SecondFactorEnableInput,
  SecondFactorProofInput,
  SecondFactorSetupStart,
  SecondFactorStatus,
} from '../../../common/schemas/second-factor';
import { ERRORS } from '../../../common/texts';
import { api, ApiError } from '../../lib/api';

/** Query keys start with the live-event topic, so an accounts event refreshes the profile. */
export const profileKey = ['accounts', 'profile'] as const;

export function useProfile(enabled: boolean) {
  return useQuery({ queryKey: profileKey, queryFn: () => api<Profile>('/api/profile'), enabled, staleTime: 0 });
}

/** The security questions of the option lists (File maintenance), for useOptionLists (lib/option-lists.ts). */
export const securityQuestionsOf = (lists: OptionLists) => lists.accounts.securityQuestions;

export function saveProfile(values: ProfileFormValues & { avatarKey?: string | null; version: number }): Promise<Profile> {
  return api<Profile>('/api/profile', { method: 'PUT', body: values });
}

/** Account Settings' Change password; the server ends the account's other sessions. */
export function changePassword(body: ChangePasswordInput): Promise<{ endedSessions: number }> {
  return api<{ endedSessions: number }>('/api/profile/password', { method: 'POST', body });
}

export function sendResetEmail(): Promise<{ sentTo: string }> {
  return api<{ sentTo: string }>('/api/profile/reset-email', { method: 'POST' });
}

/** Stages the cropped, compressed picture; the returned key is saved with the form. */
export async function uploadAvatar(image: Blob): Promise<{ avatarKey: string; previewURL: string }> {
  let response: Response;
  try {
    response = await fetch('/api/profile/avatar', {
      method: 'POST',
      headers: { 'content-type': image.type || 'image/jpeg', accept: 'application/json' },
      body: image,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Cannot reach the server. Check your connection and try again.');
  }
  const data = (await response.json().catch(() => undefined)) as
    { error?: { code: string; message: string; fields?: Record<string, string> } } | undefined;
  if (!response.ok) {
    const err = data?.error;
    throw new ApiError(response.status, err?.code ?? 'INTERNAL', err?.message ?? ERRORS.internal, err?.fields ?? {});
  }
  return data as unknown as { avatarKey: string; previewURL: string };
}

export const secondFactorApi = {
  setup: (body: SecondFactorProofInput) => api<SecondFactorSetupStart>('/api/profile/second-factor/setup', { method: 'POST', body }),
  enable: (body: SecondFactorEnableInput) => api<RecoveryCodesResult>('/api/profile/second-factor/enable', { method: 'POST', body }),
  disable: (body: SecondFactorProofInput) => api<SecondFactorStatus>('/api/profile/second-factor/disable', { method: 'POST', body }),
  newCodes: (body: SecondFactorProofInput) =>
    api<RecoveryCodesResult>('/api/profile/second-factor/recovery-codes', { method: 'POST', body }),
};
