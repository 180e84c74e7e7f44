import { useEffect, useRef } from 'react';

/**
 * When `key` changes (a new sub-screen), moves focus to the first heading inside the returned
 * container: the button that was pressed is gone, and keyboard and screen-reader users must not
 * be left on <body>.
 */
export function useFocusOnChange<T extends HTMLElement>(key: string) {
  const container = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    container.current?.querySelector<HTMLElement>('h2')?.focus();
  }, [key]);
  return container;
}
