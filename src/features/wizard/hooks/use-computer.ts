import { useEffect, useState } from 'react';
import { useMediaQuery } from '@/lib/use-media-query';

const largeScreen = '(min-width: 1024px)';

/**
 * Whether this looks like a computer rather than a phone: a large screen, or no camera at all.
 * There the phone is the better camera, so the wizard offers it first.
 */
export function useComputer(): boolean {
  const large = useMediaQuery(largeScreen);
  const [noCamera, setNoCamera] = useState(false);
  useEffect(() => {
    let stopped = false;
    // Device kinds are listed without a permission prompt (labels stay empty until one).
    void navigator.mediaDevices
      ?.enumerateDevices()
      .then((devices) => !stopped && setNoCamera(!devices.some((d) => d.kind === 'videoinput')))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, []);
  return large || noCamera;
}
