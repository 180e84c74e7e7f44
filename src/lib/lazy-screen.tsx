import type { ComponentType } from 'react';

/**
 * A lazily loaded component (like React.lazy) whose code can be fetched ahead with `preload()`.
 * Once loaded it renders at once: a screen preloaded while the person is on the one before never
 * suspends, so the old screen never lingers hidden behind a fallback while the new one loads.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  let Loaded: ComponentType<P> | null = null;
  let failure: unknown = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        failure = error;
      },
    ));
  function LazyScreen(props: P) {
    if (failure) {
      const error = failure;
      // The next render (a retry) fetches again.
      failure = null;
      pending = null;
      throw error;
    }
    if (!Loaded) throw preload();
    return <Loaded {...props} />;
  }
  return Object.assign(LazyScreen, { preload });
}
