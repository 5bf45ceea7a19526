import * as React from 'react';
import { Download } from 'lucide-react';
import { errorMessage } from '@/api';
import { EmptyState, LoadError, Loading } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import type { FetchPage } from '@/hooks/api/list';
import { csvFileName, fetchAllPages, toCsv, type CsvColumn } from '@/lib/csv';
import { cn } from '@/lib/utils';

/**
 * The one list view of the dashboard's list pages (products, hubs, customers, transactions,
 * payouts, keys, webhooks, events, …): columns, the loading and error states, the empty state,
 * "Load more" for keyset pages, and the CSV export of the whole list. A page says what its
 * columns are and what an empty list tells the reader; every list looks and behaves alike.
 */

export interface Column<T> {
  header: React.ReactNode;
  cell: (row: T) => React.ReactNode;
  /** Classes of the column's cells (`whitespace-nowrap`, `font-mono text-xs`, …). */
  className?: string;
  /** Classes of its header: a column hidden at some widths (`hidden md:table-cell`) says so here too. */
  headClassName?: string;
}

/** What a list hook gives (hooks/api/list.ts); a one-page list leaves out the paging. */
export interface ListState<T> {
  items: T[];
  isLoading: boolean;
  error: unknown;
  hasMore?: boolean;
  loadingMore?: boolean;
  loadMore?: () => void;
}

export function ListView<T>({ list, columns, rowKey, empty, label, rowProps, card, framed = false }: {
  list: ListState<T>;
  columns: (Column<T> | false)[];
  rowKey: (row: T) => string;
  /** Shown when the list has nothing (and nothing failed): what it will hold, what to do next. */
  empty: React.ReactNode;
  /** The table's accessible name. */
  label?: string;
  /** Attributes of a row (`data-testid`). */
  rowProps?: (row: T) => Record<`data-${string}`, string>;
  /** Below md, one card per row instead of the table, for rows whose actions must stay in view. */
  card?: (row: T) => React.ReactNode;
  /** Inside a bordered card (the developer pages). */
  framed?: boolean;
}) {
  const shown = columns.filter((c): c is Column<T> => c !== false);
  const table = (
    <Table aria-label={label} className={card ? 'hidden md:table' : undefined}>
      <TableHeader>
        <TableRow>{shown.map((c, i) => <TableHead key={i} className={c.headClassName}>{c.header}</TableHead>)}</TableRow>
      </TableHeader>
      <TableBody>
        {list.items.map((row) => (
          <TableRow key={rowKey(row)} {...rowProps?.(row)}>
            {shown.map((c, i) => <TableCell key={i} className={c.className}>{c.cell(row)}</TableCell>)}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  return (
    <>
      {!!list.error && <div className="mb-4"><LoadError error={list.error} /></div>}
      {list.isLoading ? <Loading /> : !list.items.length ? (!list.error && empty) : (
        <>
          {card && <ul aria-label={label} className="flex flex-col gap-3 md:hidden">{list.items.map((row) => <li key={rowKey(row)} className="rounded-lg border bg-card p-3 text-sm">{card(row)}</li>)}</ul>}
          {framed ? <div className="rounded-lg border bg-card">{table}</div> : table}
        </>
      )}
      {list.loadMore && <LoadMore hasMore={!!list.hasMore} loading={!!list.loadingMore} onClick={list.loadMore} />}
    </>
  );
}

/** An empty list's message; re-exported so a list page needs one import. */
export { EmptyState };

/** "Load more" under a list that has more pages. */
export function LoadMore({ hasMore, loading, onClick }: { hasMore: boolean; loading: boolean; onClick: () => void }) {
  if (!hasMore) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" onClick={onClick} disabled={loading}>{loading ? 'Loading…' : 'Load more'}</Button>
    </div>
  );
}

/** An API error, or nothing. */
export function ErrorNote({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  return <div className={cn('mb-4', className)}><LoadError error={error} /></div>;
}

/**
 * Exports a whole list (not just the rows on screen) as CSV: pages through the API in the
 * browser, 100 rows a request, with the list's current filters, and downloads the file.
 */
export function ExportCsvButton<T>({ fetchPage, columns, name }: { fetchPage: FetchPage<T>; columns: CsvColumn<T>[]; name: string[] }) {
  const [count, setCount] = React.useState<number | null>(null);
  const run = async () => {
    setCount(0);
    try {
      const rows = await fetchAllPages<T>(async (cursor) => fetchPage({ limit: 100, ...(cursor ? { cursor } : {}) }), { onProgress: setCount });
      // A byte-order mark, so spreadsheet apps read the file as UTF-8 (names with accents).
      const blob = new Blob(['\uFEFF', toCsv(columns, rows)], { type: 'text/csv;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = csvFileName(...name);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({ title: `Exported ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}` });
    } catch (err) {
      toast({ title: 'Export failed', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setCount(null);
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={run} disabled={count !== null}>
      <Download aria-hidden />
      {count === null ? 'Export CSV' : `Exporting… ${count}`}
    </Button>
  );
}
