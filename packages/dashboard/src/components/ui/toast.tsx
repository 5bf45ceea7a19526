import * as React from 'react';
import { XIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * `toast({ title, description, variant })` from anywhere (mutation callbacks included), rendered
 * by one <Toaster /> in the app root. Not Radix Toast: Radix copies each toast's text into a
 * hidden announcer beside the toast itself, so the page held every message twice ("Notification
 * Saved" and "Saved", issue 26). Here the list is one polite live region that is in the page
 * from the start, so a screen reader reads a new toast once and the page holds its text once.
 * A toast stays while the pointer or focus is on it, and leaves 5 s after.
 */
type ToastInput = { title: string; description?: string; variant?: 'default' | 'destructive' };
type ToastItem = ToastInput & { id: number };

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function toast(input: ToastInput) {
  items = [...items, { ...input, id: nextId++ }].slice(-3);
  emit();
}

function dismiss(id: number) {
  items = items.filter((t) => t.id !== id);
  emit();
}

function useToasts() {
  return React.useSyncExternalStore(
    (l) => { listeners.add(l); return () => listeners.delete(l); },
    () => items,
  );
}

const showFor = 5000;

function Toast({ item }: { item: ToastItem }) {
  const [held, setHeld] = React.useState(false);
  React.useEffect(() => {
    if (held) return;
    const timer = window.setTimeout(() => dismiss(item.id), showFor);
    return () => window.clearTimeout(timer);
  }, [held, item.id]);
  const hold = () => setHeld(true);
  const release = () => setHeld(false);
  return (
    <li
      data-state="open"
      onPointerEnter={hold} onPointerLeave={release} onFocus={hold} onBlur={release}
      onKeyDown={(e) => { if (e.key === 'Escape') dismiss(item.id); }}
      className={cn(
        'pointer-events-auto relative flex w-full items-start justify-between gap-3 rounded-md border p-4 pr-8 shadow-lg',
        'animate-in slide-in-from-top-4',
        item.variant === 'destructive' ? 'border-destructive bg-destructive text-white' : 'bg-background text-foreground',
      )}
    >
      <div className="grid gap-1">
        <p className="text-sm font-semibold">{item.title}</p>
        {item.description && <p className="text-sm opacity-90">{item.description}</p>}
      </div>
      <button type="button" aria-label="Close" onClick={() => dismiss(item.id)}
        className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring">
        <XIcon className="size-4" aria-hidden />
      </button>
    </li>
  );
}

export function Toaster() {
  const toasts = useToasts();
  return (
    // Top right, not bottom right: the editors' Save bar is sticky at the bottom, and a "Saved" toast sat on its button (issue 26).
    <section aria-label="Notifications" className="pointer-events-none fixed top-0 right-0 z-[100] w-full p-4 sm:max-w-[420px]">
      <div role="status" aria-live="polite">
        <ol className="flex max-h-screen flex-col gap-2">
          {toasts.map((t) => <Toast key={t.id} item={t} />)}
        </ol>
      </div>
    </section>
  );
}
