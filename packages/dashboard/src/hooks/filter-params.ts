import { useSearchParams } from 'react-router';

/**
 * A list page's filters kept in its address (`?status=&q=…`), and a setter for one of them.
 * The setter starts from the address as it is now, not from the params of the last render: two
 * changes in a row (clearing the search, then picking a status) can come before the page renders
 * again, and a setter working from that render's params would bring the cleared search back.
 */
export function useFilterParams(): [URLSearchParams, (key: string, value: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(key, value); else next.delete(key);
    setParams(next, { replace: true });
  };
  return [params, set];
}
