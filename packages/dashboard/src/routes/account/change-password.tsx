import { useChangePassword } from '@/hooks/api/account';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Field, FormError, fieldError, formValues } from '@/components/form';
import { PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';

export function ChangePassword() {
  const change = useChangePassword({
    onSuccess: () => toast({ title: 'Password changed', description: 'Every other session of yours has been signed out.' }),
  });
  return (
    <div className="max-w-md">
      <PageHeader title="Change password" description="Saving signs you out everywhere else; this browser stays signed in." />
      <Card>
        <CardContent>
          <form
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const v = formValues(form);
              change.mutate({ currentPassword: v.currentPassword, newPassword: v.newPassword }, { onSuccess: () => form.reset() });
            }}
          >
            <FormError error={change.error} fields={['currentPassword', 'newPassword']} />
            <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={fieldError(change.error, 'currentPassword')} />
            <Field label="New password" name="newPassword" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={fieldError(change.error, 'newPassword')} />
            <Button type="submit" className="w-fit" disabled={change.isPending}>Change password</Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
