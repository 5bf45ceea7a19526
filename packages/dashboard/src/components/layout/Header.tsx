import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ChevronDown, KeyRound, LogOut, UserRound } from 'lucide-react';
import type { Session } from '@/api';
import { useSignOut } from '@/hooks/api/account';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import {
  DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/api';
import { useSwitchSession } from '@/lib/session';
import { homeFor } from './nav';

export function Header({ session }: { session: Session }) {
  const switcher = useSwitchSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useSignOut({
    onSettled: () => {
      queryClient.clear();
      navigate('/signin', { replace: true });
    },
  });
  const onError = (err: unknown) => toast({ title: 'Could not switch', description: errorMessage(err), variant: 'destructive' });

  return (
    <header className="border-b bg-background">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 md:px-8">
        <div className="flex min-w-0 items-center gap-2">
          {session.brands.length > 1 ? (
            <Select
              value={session.brand.id}
              onValueChange={(brandId) => switcher.mutate({ brandId }, {
                onError,
                onSuccess: (s) => navigate(homeFor(s.brand.role)),
              })}
            >
              <SelectTrigger aria-label="Brand" className="max-w-56 font-semibold">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {session.brands.map((b) => <SelectItem key={b.id} value={b.id}>{b.name}</SelectItem>)}
              </SelectContent>
            </Select>
          ) : (
            <span className="truncate font-semibold" data-testid="brand-name">{session.brand.name}</span>
          )}
          <Badge variant="secondary" className="capitalize">{session.brand.plan}</Badge>
        </div>
        <div className="ml-auto flex items-center gap-3">
          <div className="flex items-center gap-2">
            <Switch
              id="test-mode"
              checked={session.mode === 'test'}
              disabled={switcher.isPending}
              onCheckedChange={(on) => switcher.mutate({ mode: on ? 'test' : 'live' }, { onError })}
            />
            <Label htmlFor="test-mode" className="cursor-pointer">Test mode</Label>
          </div>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="sm" aria-label={`Account: ${session.user.name}`}>
                <UserRound aria-hidden />
                <span className="hidden max-w-40 truncate sm:inline">{session.user.name}</span>
                <ChevronDown aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="w-56">
              <DropdownMenuLabel>
                <span className="block truncate">{session.user.name}</span>
                <span className="block truncate text-xs font-normal text-muted-foreground">{session.user.email}</span>
                <span className="block text-xs font-normal text-muted-foreground capitalize">{session.brand.role}</span>
              </DropdownMenuLabel>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => navigate('/account/password')}>
                <KeyRound aria-hidden /> Change password
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => signOut.mutate()}>
                <LogOut aria-hidden /> Sign out
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
    </header>
  );
}
