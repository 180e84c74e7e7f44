// Error rates of a similarity score (higher = more alike) over genuine and impostor pairs: what a
// face-match pass mark is chosen from.

export interface MatchRates {
  /** Genuine pairs refused: similarity under the threshold. */
  frr: number;
  /** Impostor pairs accepted: similarity at or over the threshold. */
  far: number;
}

export function ratesAt(genuine: number[], impostor: number[], threshold: number): MatchRates {
  const refused = genuine.filter((s) => s < threshold).length;
  const accepted = impostor.filter((s) => s >= threshold).length;
  return {
    frr: genuine.length ? refused / genuine.length : 0,
    far: impostor.length ? accepted / impostor.length : 0,
  };
}

/** Thresholds worth trying: every measured score, and just above each (ties go one way or the other). */
function candidates(genuine: number[], impostor: number[]) {
  return [...new Set([...genuine, ...impostor].flatMap((s) => [s, s + 1e-6]))].sort((a, b) => a - b);
}

/** The equal-error rate: the threshold where FRR and FAR are closest, and their mean there. */
export function equalError(genuine: number[], impostor: number[]) {
  let best = { threshold: 0, eer: 1, gap: Infinity };
  for (const threshold of candidates(genuine, impostor)) {
    const { frr, far } = ratesAt(genuine, impostor, threshold);
    const gap = Math.abs(frr - far);
    if (gap < best.gap) best = { threshold, eer: (frr + far) / 2, gap };
  }
  return { threshold: best.threshold, eer: best.eer };
}

/** The lowest threshold whose FAR is at most `maxFar`, and the FRR it costs. */
export function thresholdForFar(genuine: number[], impostor: number[], maxFar: number) {
  for (const threshold of candidates(genuine, impostor)) {
    const rates = ratesAt(genuine, impostor, threshold);
    if (rates.far <= maxFar) return { threshold, ...rates };
  }
  return { threshold: Infinity, frr: 1, far: 0 };
}

/** Min, median and max, for a line of a report. */
export function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0 };
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  return {
    n: sorted.length,
    min: round(sorted[0]),
    median: round(sorted[Math.floor(sorted.length / 2)]),
    max: round(sorted[sorted.length - 1]),
  };
}
