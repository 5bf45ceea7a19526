import { useMutation, type UseMutationOptions } from '@tanstack/react-query';

/** What a page adds to a write: its own onSuccess, onError… (the call itself is the hook's). */
export type AfterWrite<Result, Vars> = Omit<UseMutationOptions<Result, Error, Vars>, 'mutationFn'>;

/** A mutation hook for one call: `const useSignIn = mutation(dashboardApi.session.signIn)`, then `useSignIn({ onSuccess })`. */
export function mutation<Result, Vars = void>(call: (vars: Vars) => Promise<Result>) {
  return (options: AfterWrite<Result, Vars> = {}) => useMutation({ ...options, mutationFn: call });
}
