import { z } from 'zod';

/** The active liveness challenge on the wire: the service chooses it, the wizard tells it (rules: src/checks/video/liveness-challenge.ts). */
export const challengeActions = ['turnLeft', 'turnRight', 'blink'] as const;
export type ChallengeAction = (typeof challengeActions)[number];

export const livenessChallengeSchema = z
  .object({
    /** In order; the person's own left and right (the preview is mirrored, so it matches the screen). */
    actions: z.array(z.enum(challengeActions)).min(1).max(4),
    /**
     * When each action is asked, in milliseconds from the start of the recording: the wizard shows
     * its cue then, and the service looks for the movement's start in a short window after it.
     */
    cuesMs: z.array(z.number().int().min(0).max(60_000)).min(1).max(4),
    /** Which attempt this challenge is (1 for the first), and how many the verification has. */
    attempt: z.number().int().min(1).max(10),
    attempts: z.number().int().min(1).max(10),
  })
  .refine(
    (c) => c.cuesMs.length === c.actions.length && c.cuesMs.every((t, i) => i === 0 || t > c.cuesMs[i - 1]),
    { message: 'one cue per action, in time order' },
  );
export type LivenessChallenge = z.infer<typeof livenessChallengeSchema>;
