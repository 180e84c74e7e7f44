import { useEffect, useRef } from 'react';
import { navigate, useLocation } from '@/lib/router';
import type { WizardStep } from '../lib/steps';
import { parsePosition, positionOf, positionSearch, type Position } from '../lib/wizard-position';
import type { WizardState } from '../lib/wizard-model';

/** What the wizard puts in history.state: the address it came from, so Back can step back in history. */
type Entry = { wizardFrom?: string };

const search = (location: string) => (location.includes('?') ? location.slice(location.indexOf('?')) : '');

/**
 * One browser history entry per wizard screen: a change of screen pushes an entry, the browser's
 * Back and Forward (and a link with `?step=`) move the wizard, as far as the wizard allows.
 */
export function useHistorySync(
  flowId: string,
  state: Pick<WizardState, 'screen' | 'stepIndex' | 'part' | 'retake'> | null,
  steps: WizardStep[],
  /** Null while the wizard cannot move (nothing created yet): a link is corrected to where it is. */
  go: ((position: Position) => void) | null,
) {
  const location = useLocation();
  const applied = useRef<string | null>(null);
  // Set when the wizard moved because of the address: if it could not go all the way, the
  // address is corrected in place rather than pushed as a new entry.
  const followingUrl = useRef(false);
  const base = `/verify/${encodeURIComponent(flowId)}`;

  useEffect(() => {
    if (!state) return;
    const wanted = `${base}${positionSearch(positionOf(state))}`;
    if (applied.current === null) {
      // The first screen: a deep link moves the wizard there (if it may go there), else the
      // address is set to where the wizard is.
      applied.current = location;
      const linked = parsePosition(search(location));
      if (go && linked && `${base}${positionSearch(linked)}` !== wanted) {
        followingUrl.current = true;
        go(linked);
        return;
      }
      if (location !== wanted) navigate(wanted, { replace: true, scroll: false });
      applied.current = wanted;
      return;
    }
    if (location !== applied.current) {
      // The browser moved (Back, Forward): the wizard follows.
      applied.current = location;
      const linked = parsePosition(search(location));
      if (go && linked && `${base}${positionSearch(linked)}` !== wanted) {
        followingUrl.current = true;
        go(linked);
        return;
      }
      if (location !== wanted) {
        // Somewhere the wizard may not go (or an address without ?step=): correct the address.
        navigate(wanted, { replace: true, scroll: false });
        applied.current = wanted;
      }
      return;
    }
    if (wanted !== location) {
      if (followingUrl.current) {
        navigate(wanted, { replace: true, scroll: false, state: window.history.state as Entry | null });
      } else {
        const entry: Entry = { wizardFrom: location };
        navigate(wanted, { state: entry });
      }
      applied.current = wanted;
    }
    followingUrl.current = false;
  }, [base, go, location, state, steps]);

  /** Back to a position: through history when the previous entry is that one, else a new entry. */
  return (position: Position) => {
    const target = `${base}${positionSearch(position)}`;
    const entry = window.history.state as Entry | null;
    if (entry?.wizardFrom === target) window.history.back();
    else go?.(position);
  };
}
