import { useEffect, useState } from 'react';

const largeScreen = '(min-width: 1024px)';

/**
 * Whether this looks like a computer rather than a phone: a large screen, or no camera at all.
 * There the phone is the better camera, so the wizard offers it first.
 */
export function useComputer(): boolean {
  const [large, setLarge] = useState(() => globalThis.matchMedia?.(largeScreen).matches ?? false);
  const [noCamera, setNoCamera] = useState(false);
  useEffect(() => {
    const query = globalThis.matchMedia?.(largeScreen);
    const changed = () => setLarge(query.matches);
    query?.addEventListener('change', changed);
    let stopped = false;
    // Device kinds are listed without a permission prompt (labels stay empty until one).
    void navigator.mediaDevices
      ?.enumerateDevices()
      .then((devices) => !stopped && setNoCamera(!devices.some((d) => d.kind === 'videoinput')))
      .catch(() => undefined);
    return () => {
      stopped = true;
      query?.removeEventListener('change', changed);
    };
  }, []);
  return large || noCamera;
}
