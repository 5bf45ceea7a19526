import { useState } from 'react';
import { Download } from 'lucide-react';
import { api, errorMessage, type ListPage, type Query } from '@/api';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { csvFileName, fetchAllPages, toCsv, type CsvColumn } from './csv.ts';

/**
 * Exports a whole list (not just the rows on screen) as CSV: pages through the API in the
 * browser, 100 rows a request, with the list's current filters, and downloads the file.
 */
export function ExportCsvButton<T>({ path, query = {}, columns, name }: { path: string; query?: Query; columns: CsvColumn<T>[]; name: string[] }) {
  const [count, setCount] = useState<number | null>(null);
  const run = async () => {
    setCount(0);
    try {
      const rows = await fetchAllPages<T>(
        (cursor) => api.get<ListPage<T>>(path, { ...query, limit: 100, cursor }),
        { onProgress: setCount },
      );
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
