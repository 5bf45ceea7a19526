import * as React from 'react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { XIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

/**
 * Radix Toast with a tiny store: `toast({ title, description, variant })` from anywhere (mutation
 * callbacks included), rendered by one <Toaster /> in the app root.
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

export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider swipeDirection="right" duration={5000}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          onOpenChange={(open) => { if (!open) dismiss(t.id); }}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 rounded-md border p-4 pr-8 shadow-lg',
            'data-[state=open]:animate-in data-[state=open]:slide-in-from-bottom-4 data-[state=closed]:animate-out data-[state=closed]:fade-out-80',
            t.variant === 'destructive' ? 'border-destructive bg-destructive text-white' : 'bg-background text-foreground',
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description && <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>}
          </div>
          <ToastPrimitive.Close aria-label="Close" className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring">
            <XIcon className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* Top right, not bottom right: the editors' Save bar is sticky at the bottom, and a "Saved" toast sat on its button (issue 26). */}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
