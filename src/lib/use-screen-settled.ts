import { useEffect, useState } from 'react';

/**
 * True once `shown` has been painted and the page has gone idle since, or the person has acted on
 * it: the moment to fetch what comes next (the following screens' code) without competing with
 * what this screen needs on a slow link. It stays true.
 */
export function useScreenSettled(shown: boolean) {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!shown || settled) return;
    const settle = () => setSettled(true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let idle: number | undefined;
    // A timer set in the frame before the paint runs after it; then the page's first idle moment
    // (Safari has no requestIdleCallback: there, right after the paint).
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(settle, { timeout: 2000 });
        else settle();
      });
    });
    const acts = ['pointerdown', 'keydown'] as const;
    for (const act of acts) window.addEventListener(act, settle, { capture: true, once: true });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      if (idle !== undefined) cancelIdleCallback(idle);
      for (const act of acts) window.removeEventListener(act, settle, { capture: true });
    };
  }, [shown, settled]);
  return settled;
}
