import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAcceptInvite } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { Field, FormError, fieldError, formValues } from '@/components/form';
import { reloadSession, useSession } from '@/lib/session';
import { AuthCard } from './auth-card';

/**
 * The invite link an owner copied (`/dashboard/invite?token=…`). Someone already signed in joins
 * with one click; someone new gives a name and password and gets an account.
 */
export function AcceptInvite() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const accept = useAcceptInvite({
    onSuccess: async () => {
      await reloadSession(queryClient);
      navigate('/', { replace: true });
    },
  });
  if (!token) {
    return <AuthCard title="Invite link incomplete" description="Ask the brand's owner to copy the invite link again."><Button asChild variant="outline"><Link to="/signin">Sign in</Link></Button></AuthCard>;
  }
  if (session.data) {
    return (
      <AuthCard title="Join the brand" description={`You are signed in as ${session.data.user.email}. Accepting adds the brand to your account.`}>
        <div className="grid gap-4">
          <FormError error={accept.error} />
          <Button onClick={() => accept.mutate({ token })} disabled={accept.isPending}>Accept invite</Button>
        </div>
      </AuthCard>
    );
  }
  const err = (f: string) => fieldError(accept.error, f);
  return (
    <AuthCard
      title="Join the brand"
      description="Already have an account? Enter its email and password. New here? Add your name too, and we create your account."
    >
      <form
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          accept.mutate({ token, name: v.name || undefined, email: v.email, password: v.password });
        }}
      >
        <FormError error={accept.error} fields={['name', 'password', 'email']} />
        <Field label="Email" name="email" type="email" autoComplete="email" required error={err('email')} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={err('password')} />
        <Field label="Your name (new accounts only)" name="name" autoComplete="name" hint="Leave empty if you already have an account." error={err('name')} />
        <Button type="submit" disabled={accept.isPending}>Join</Button>
      </form>
    </AuthCard>
  );
}
