import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useSignUp } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { Field, FormError, fieldError, formValues } from '@/components/form';
import { reloadSession } from '@/lib/session';
import { AuthCard } from './auth-card';

const fields = ['name', 'email', 'password', 'brandName'];

export function SignUp() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signUp = useSignUp({
    onSuccess: async () => {
      await reloadSession(queryClient);
      navigate('/', { replace: true });
    },
  });
  const err = (f: string) => fieldError(signUp.error, f);
  return (
    <AuthCard
      title="Create your account"
      description="You start in test mode: try everything with test data before you go live."
      footer={<>Already have an account? <Link className="font-medium text-foreground underline-offset-4 hover:underline" to="/signin">Sign in</Link></>}
    >
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          signUp.mutate({ name: v.name, email: v.email, password: v.password, brandName: v.brandName });
        }}
      >
        <FormError error={signUp.error} fields={fields} />
        <Field label="Your name" name="name" autoComplete="name" required error={err('name')} />
        <Field label="Email" name="email" type="email" autoComplete="email" required error={err('email')} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={err('password')} />
        <Field label="Brand name" name="brandName" autoComplete="organization" required hint="What your customers see on checkout pages." error={err('brandName')} />
        <Button type="submit" disabled={signUp.isPending}>{signUp.isPending ? 'Creating…' : 'Create account'}</Button>
      </form>
    </AuthCard>
  );
}
