import { useQueryClient } from '@tanstack/react-query';
import { RateLimitError } from '@creator-commerce/sdk';
import { Link } from 'react-router';
import { useSignIn } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { Field, FormError, fieldError, formValues } from '@/components/form';
import { fromNow } from '@/lib/format';
import { reloadSession } from '@/lib/session';
import { AuthCard } from './auth-card';
import { useReturnTo } from './return-to';

export function SignIn() {
  const queryClient = useQueryClient();
  const returnTo = useReturnTo();
  const signIn = useSignIn({
    onSuccess: async () => {
      await reloadSession(queryClient);
      returnTo.go();
    },
  });
  const throttled = signIn.error instanceof RateLimitError ? signIn.error : null;
  return (
    <AuthCard
      title="Sign in"
      description="Manage your brand's catalog, people, money and developer settings."
      footer={<>New here? <Link className="font-medium text-foreground underline-offset-4 hover:underline" to={{ pathname: '/signup' }}>Create an account</Link></>}
    >
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          signIn.mutate({ email: v.email, password: v.password });
        }}
      >
        {throttled ? (
          <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {throttled.message}
            {throttled.retryAfter && !/try again/i.test(throttled.message) ? ` Try again ${fromNow(throttled.retryAfter)}.` : ''}
          </div>
        ) : (
          <FormError error={signIn.error} fields={['email', 'password']} />
        )}
        <Field label="Email" name="email" type="email" autoComplete="email" required error={fieldError(signIn.error, 'email')} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={fieldError(signIn.error, 'password')} />
        <Button type="submit" disabled={signIn.isPending}>{signIn.isPending ? 'Signing in…' : 'Sign in'}</Button>
        <p className="text-xs text-muted-foreground">
          <Link className="underline-offset-4 hover:underline" to={{ pathname: '/forgot-password' }}>Forgot your password?</Link> We mail you a link to set a new one.
        </p>
      </form>
    </AuthCard>
  );
}
