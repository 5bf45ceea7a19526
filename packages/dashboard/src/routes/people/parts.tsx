import { NavLink } from 'react-router';
import { cn } from '@/lib/utils';

// The shell's page parts, so these pages look like every other.
export { EmptyState, Loading, PageHeader } from '@/components/page';
export { ErrorNote, LoadMore } from '@/components/list-view';

/** The pages of one section (Catalog: Products, Hubs; Money: Transactions, Payouts) as tabs of links. */
export function SectionTabs({ label, links }: { label: string; links: { to: string; label: string; end?: boolean }[] }) {
  return (
    <nav aria-label={label} className="mb-6 flex gap-1 overflow-x-auto border-b">
      {links.map((l) => (
        <NavLink key={l.to} to={l.to} end={l.end}
          className={({ isActive }) => cn('-mb-px border-b-2 px-3 py-2 text-sm whitespace-nowrap outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
            isActive ? 'border-primary font-medium text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground')}>
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}
