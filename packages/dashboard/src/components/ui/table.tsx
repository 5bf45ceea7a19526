import * as React from 'react';
import { cn } from '@/lib/utils';

/**
 * Below 768 px each row shows as a card (index.css), each cell a line named after its column.
 * The names come from the header row: every cell gets its column's header text as `data-label`,
 * here once for every table rather than in each page, and again whenever rows change. Above that
 * width the container scrolls sideways, so a wide table never pushes the page wider.
 */
function labelCells(table: HTMLTableElement) {
  const headers = [...(table.tHead?.rows[0]?.cells ?? [])].map((th) => th.textContent?.trim() ?? '');
  if (!headers.length) return;
  for (const body of [...table.tBodies, ...(table.tFoot ? [table.tFoot] : [])]) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const label = cell.colSpan > 1 ? undefined : headers[column];
        if (label && cell.dataset.label !== label) cell.dataset.label = label;
        else if (!label && cell.dataset.label !== undefined) delete cell.dataset.label;
        column += cell.colSpan;
      }
    }
  }
}

function Table({ className, ...props }: React.ComponentProps<'table'>) {
  const ref = React.useRef<HTMLTableElement>(null);
  React.useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    labelCells(table);
    const watch = new MutationObserver(() => labelCells(table));
    watch.observe(table, { childList: true, subtree: true, characterData: true });
    return () => watch.disconnect();
  }, []);
  return (
    <div data-slot="table-container" className="relative w-full overflow-x-auto">
      <table ref={ref} data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />;
}

function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return <tr data-slot="table-row" className={cn('border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted', className)} {...props} />;
}

function TableHead({ className, ...props }: React.ComponentProps<'th'>) {
  return <th data-slot="table-head" className={cn('h-10 px-2 text-left align-middle font-medium whitespace-nowrap text-foreground', className)} {...props} />;
}

function TableCell({ className, ...props }: React.ComponentProps<'td'>) {
  return <td data-slot="table-cell" className={cn('p-2 align-middle whitespace-nowrap', className)} {...props} />;
}

function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return <caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />;
}

export { Table, TableHeader, TableBody, TableRow, TableHead, TableCell, TableCaption };
