import { useEffect } from 'react';

/** Names the browser tab after what the page shows ("Home · Dashboard"), so tabs and history can be told apart. */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Dashboard` : 'Dashboard';
  }, [title]);
}
