import { randomInt } from 'node:crypto';
import { chooseChallenge } from '@/checks/video/liveness-challenge';
import type { InputFacts } from '@/checks/inputs/node/types';
import { livenessChallengeSchema } from '@/shared/contract/liveness-challenge';
import type { VideoChallenge } from '../checks/inputs/selfie-video';
import type { VerificationRow } from '../storage/rows';

/**
 * The attempts of a verification's liveness challenge. The challenge is the verification's own
 * (its row's `challenge`: the current attempt's challenge as JSON, with `spent` once none is
 * left); one attempt at a time, as send-input runs under the identity's lock; a bounded number of
 * them (`CHALLENGE_ATTEMPTS`), after which the video is kept for a review.
 */

/** A challenge chosen by the service (never the browser), so that a recording made beforehand cannot know it. */
export const issueChallenge = (attempt = 1) =>
  chooseChallenge(() => randomInt(0, 2 ** 32) / 2 ** 32, attempt);

/**
 * The verification's active liveness challenge, if the service chose one: the current attempt's,
 * or none left (`spent`). One that cannot be read (a row of an older release) counts as spent:
 * its video goes to a review rather than unchallenged.
 */
export function challengeOf(v: VerificationRow): VideoChallenge | null {
  if (!v.challenge) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(v.challenge);
  } catch {
    return { challenge: null, spent: true };
  }
  const parsed = livenessChallengeSchema.safeParse(stored);
  if (!parsed.success) return { challenge: null, spent: true };
  return { challenge: parsed.data, spent: (stored as { spent?: unknown }).spent === true };
}

/**
 * The challenge after a video was judged against it: each judged video uses its attempt up, so a
 * fresh one (new actions, new cues) is chosen for the next while attempts are left; after the
 * last the challenge is spent. Undefined when the video was not judged (nothing changes).
 */
export function challengeAfter(asked: VideoChallenge | null, facts: InputFacts) {
  const judged = facts.challenge?.result === 'passed' || facts.challenge?.result === 'failed';
  if (!asked?.challenge || asked.spent || !judged) return undefined;
  const { attempt, attempts } = asked.challenge;
  if (attempt >= attempts) return { stored: JSON.stringify({ ...asked.challenge, spent: true }) };
  const next = issueChallenge(attempt + 1);
  return { next, stored: JSON.stringify(next) };
}
