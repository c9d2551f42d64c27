import { useEffect } from 'react';

/** Sets the tab title while the calling screen is shown: "`title` · Quire". */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · Quire` : 'Quire';
  }, [title]);
}
