import * as React from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { api, ApiError, dash, errorMessage, type Role, type TeamMember } from '@/api';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Confirm } from '@/components/confirm';
import { CopyButton } from '@/components/copy-button';
import { Field, FormError } from '@/components/form';
import { EmptyState, LoadError, Loading, PageHeader } from '@/components/page';
import { toast } from '@/components/ui/toast';
import { formatDate } from '@/lib/format';
import { useCurrentSession } from '@/lib/session';

const teamKey = ['team'] as const;

const roleSentences: Record<Role, string> = {
  owner: 'Everything: catalog, people, money, developer settings and the team.',
  developer: 'Developer settings only: API keys, webhooks and events.',
};


export function Team() {
  const session = useCurrentSession();
  const queryClient = useQueryClient();
  const team = useQuery({ queryKey: teamKey, queryFn: () => api.get<{ items: TeamMember[] }>(dash('/team')) });
  const remove = useMutation({
    mutationFn: (m: TeamMember) => api.del(dash(`/team/${m.id}`)),
    onSuccess: () => {
      toast({ title: 'Removed from the team', description: 'Their sessions for this brand have ended.' });
      return queryClient.invalidateQueries({ queryKey: teamKey });
    },
    onError: (err) => toast({ title: 'Could not remove', description: errorMessage(err), variant: 'destructive' }),
  });
  const list = team.data?.items ?? [];
  return (
    <div>
      <PageHeader
        title="Team"
        description={`People who can sign in to ${session.brand.name}. Owners can do everything; developers see only the developer settings.`}
        actions={<InviteDialog />}
      />
      {team.isPending ? <Loading /> : team.error ? <LoadError error={team.error} /> : list.length === 0 ? (
        <EmptyState title="Just you so far" action={<InviteDialog />}>Invite a developer to manage API keys and webhooks without access to your money.</EmptyState>
      ) : (
        <div className="rounded-lg border bg-card">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Email</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Joined</TableHead>
                <TableHead><span className="sr-only">Actions</span></TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((m) => {
                const me = m.id === session.user.id;
                return (
                  <TableRow key={m.id}>
                    <TableCell className="font-medium">{m.name}{me && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}</TableCell>
                    <TableCell>{m.email}</TableCell>
                    <TableCell><Badge variant={m.role === 'owner' ? 'default' : 'secondary'} className="capitalize">{m.role}</Badge></TableCell>
                    <TableCell>{formatDate(m.joinedAt)}</TableCell>
                    <TableCell className="text-right">
                      {!me && (
                        <Confirm
                          trigger={<Button variant="outline" size="sm" className="text-destructive">Remove</Button>}
                          title={`Remove ${m.name}?`}
                          description={`They lose access to ${session.brand.name} at once. You can invite them again later.`}
                          action="Remove"
                          onConfirm={() => remove.mutate(m)}
                        />
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}

/** Makes a one-time invite link the owner copies and sends however they like (no mail server needed). */
function InviteDialog() {
  const [open, setOpen] = React.useState(false);
  const [role, setRole] = React.useState<Role>('developer');
  const [email, setEmail] = React.useState('');
  const invite = useMutation({ mutationFn: () => api.post<{ link: string; emailedTo?: string }>(dash('/invites'), { role, ...(email.trim() ? { email: email.trim() } : {}) }) });
  return (
    <Dialog open={open} onOpenChange={(o) => { setOpen(o); if (!o) invite.reset(); }}>
      <DialogTrigger asChild><Button><UserPlus aria-hidden /> Invite</Button></DialogTrigger>
      <DialogContent>
        {invite.data ? (
          <>
            <DialogHeader>
              <DialogTitle>Invite link</DialogTitle>
              <DialogDescription>
                {invite.data.emailedTo ? `We mailed it to ${invite.data.emailedTo}; you can also send it yourself.` : 'Send it to the person you invite.'} It works once, for a {role}.
              </DialogDescription>
            </DialogHeader>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              <code data-testid="invite-link" className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all select-all">{invite.data.link}</code>
              <CopyButton value={invite.data.link} />
            </div>
            <DialogFooter><Button onClick={() => setOpen(false)}>Done</Button></DialogFooter>
          </>
        ) : (
          <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); invite.mutate(); }}>
            <DialogHeader>
              <DialogTitle>Invite someone</DialogTitle>
              <DialogDescription>You get a one-time link to send them; give their address and we mail it too.</DialogDescription>
            </DialogHeader>
            <FormError error={invite.error} />
            <div className="grid gap-1.5">
              <Label htmlFor="invite-role">Role</Label>
              <Select value={role} onValueChange={(v) => setRole(v as Role)}>
                <SelectTrigger id="invite-role" className="w-full"><SelectValue /></SelectTrigger>
                <SelectContent>
                  <SelectItem value="developer">Developer</SelectItem>
                  <SelectItem value="owner">Owner</SelectItem>
                </SelectContent>
              </Select>
              <p className="text-xs text-muted-foreground">{roleSentences[role]}</p>
            </div>
            <Field label="Their email (optional)" name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={invite.error instanceof ApiError ? invite.error.fieldError('email') : undefined} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
              <Button type="submit" disabled={invite.isPending}>Create link</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
