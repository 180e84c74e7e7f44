import { useEffect } from 'react';

/** The tab's title names the console page, for tabs, history and screen readers; restored on leaving. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
