import { useSyncExternalStore } from 'react';

// A tiny history router: the app has a handful of routes and a full router would weigh on the first screen.
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
};

export function navigate(
  path: string,
  {
    replace = false,
    state = null,
    scroll = true,
  }: { replace?: boolean; state?: unknown; scroll?: boolean } = {},
) {
  if (replace) window.history.replaceState(state, '', path);
  else window.history.pushState(state, '', path);
  listeners.forEach((l) => l());
  if (scroll) window.scrollTo?.(0, 0);
}

/** The current pathname + search, re-rendering on navigation. */
export function useLocation() {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname + window.location.search,
    () => '/',
  );
}

/** Matches '/verify/:flowId' style patterns; returns the params or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:([a-zA-Z]+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${source.replace(/\*$/, '.*')}/?$`).exec(pathname);
  if (!match) return null;
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
}
