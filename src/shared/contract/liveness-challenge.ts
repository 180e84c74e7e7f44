import { z } from 'zod';

/** The active liveness challenge on the wire: the service chooses it, the wizard tells it (rules: src/checks/video/liveness-challenge.ts). */
export const challengeActions = ['turnLeft', 'turnRight', 'blink'] as const;
export type ChallengeAction = (typeof challengeActions)[number];

export const livenessChallengeSchema = z.object({
  /** In order; the person's own left and right (the preview is mirrored, so it matches the screen). */
  actions: z.array(z.enum(challengeActions)).min(1).max(4),
});
export type LivenessChallenge = z.infer<typeof livenessChallengeSchema>;
