import type { LucideIcon } from 'lucide-react';
import { Activity, Banknote, CalendarDays, House, PackageCheck, KeyRound, Mail, Package, Plug, Settings, Users, UsersRound, Webhook } from 'lucide-react';
import type { Role } from '@/api';

/**
 * The navigation, in one table: each section lists its pages and who sees them. Developers
 * (role `developer`) see only the developer settings. Pages add themselves here and in App.tsx.
 */
export interface NavItem { to: string; label: string; icon: LucideIcon }
export interface NavSection { label?: string; roles: Role[]; items: NavItem[] }

export const navSections: NavSection[] = [
  {
    roles: ['owner'],
    items: [
      { to: '/', label: 'Home', icon: House },
      { to: '/catalog', label: 'Catalog', icon: Package },
      { to: '/people', label: 'People', icon: Users },
      { to: '/bookings', label: 'Bookings', icon: CalendarDays },
      { to: '/orders', label: 'Orders', icon: PackageCheck },
      { to: '/money', label: 'Money', icon: Banknote },
    ],
  },
  {
    label: 'Developers',
    roles: ['owner', 'developer'],
    items: [
      { to: '/developers/api-keys', label: 'API keys', icon: KeyRound },
      { to: '/developers/webhooks', label: 'Webhooks', icon: Webhook },
      { to: '/developers/events', label: 'Events', icon: Activity },
      { to: '/developers/emails', label: 'Emails', icon: Mail },
      { to: '/developers/apps', label: 'Apps', icon: Plug },
    ],
  },
  {
    roles: ['owner'],
    items: [
      { to: '/team', label: 'Team', icon: UsersRound },
      { to: '/settings', label: 'Settings', icon: Settings },
    ],
  },
];

/** Where a role lands after signing in: the first page it may see. */
export function homeFor(role: Role): string {
  return navSections.find((s) => s.roles.includes(role))!.items[0].to;
}
