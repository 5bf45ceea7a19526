import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailListParams, EmailSettings, EmailSettingsUpdateParams } from '@creator-commerce/sdk';
import { client } from '@/api';
import { usePagedList } from './list.ts';
import type { AfterWrite } from './mutation.ts';

/** The outbox and the mail settings (`/api/v1/emails`, `/api/v1/email-settings`, docs/email.md). */
export const emailKeys = { all: ['emails'] as const, detail: (id: string) => ['emails', 'detail', id] as const, settings: ['email-settings'] as const };

export const useEmails = (params: EmailListParams) =>
  usePagedList([...emailKeys.all, params], (page) => client.emails.list({ ...params, ...page }), { pageSize: 25 });

export const useEmail = (id: string) => useQuery({ queryKey: emailKeys.detail(id), queryFn: () => client.emails.get(id) });

export const useEmailSettings = () => useQuery({ queryKey: emailKeys.settings, queryFn: () => client.emails.settings() });

/** Saves the settings and keeps the answer as the stored ones; the page adds its toasts. */
export function useUpdateEmailSettings(options: AfterWrite<EmailSettings, EmailSettingsUpdateParams> = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (body: EmailSettingsUpdateParams) => client.emails.updateSettings(body),
    onSuccess: (...args) => {
      qc.setQueryData(emailKeys.settings, args[0]);
      return options.onSuccess?.(...args);
    },
  });
}
