import { useEffect, useRef } from 'react';

/**
 * When `key` changes (a new screen or sub-screen), moves focus to the first `heading` inside the
 * returned container: the button that was pressed is gone, and keyboard and screen-reader users
 * must not be left on <body>. The first render keeps the focus where the page load put it.
 */
export function useFocusOnChange<T extends HTMLElement>(key: string, heading: 'h1' | 'h2' = 'h2') {
  const container = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    container.current?.querySelector<HTMLElement>(heading)?.focus();
  }, [key, heading]);
  return container;
}
