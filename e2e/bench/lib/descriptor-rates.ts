// Match rates of a descriptor variant over every pair of a labelled set's faces.
import type { EvalEntry } from './eval-set';
import { equalError, thresholdForFar } from './match-rates';

export type Described = { entry: EvalEntry; descriptor: number[] }[];
export function rates(
  list: Described,
  score: (a: number[], b: number[]) => number,
  id: (e: EvalEntry) => string | undefined,
  keep: (e: EvalEntry) => boolean = () => true,
) {
  const kept = list.filter((d) => keep(d.entry));
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < kept.length; i++)
    for (let j = i + 1; j < kept.length; j++) {
      const similarity = score(kept[i].descriptor, kept[j].descriptor);
      const [a, b] = [id(kept[i].entry), id(kept[j].entry)];
      if (a && a === b) genuine.push(similarity);
      else impostor.push(similarity);
    }
  return {
    genuine,
    impostor,
    eer: equalError(genuine, impostor),
    far: thresholdForFar(genuine, impostor, 0.001),
  };
}

/** EER and FRR at FAR ≤ 0.1 % as match-rates.ts defines them, by one sweep over sorted scores (the splits below need many). */
export function sweptRates(genuine: number[], impostor: number[]) {
  const g = [...genuine].sort((a, b) => a - b);
  const im = [...impostor].sort((a, b) => a - b);
  const candidates = [...new Set([...g, ...im].flatMap((v) => [v, v + 1e-6]))].sort((a, b) => a - b);
  let [gi, ii] = [0, 0];
  let best = { gap: Infinity, eer: 1 };
  let frrAtFar: number | undefined;
  for (const t of candidates) {
    while (gi < g.length && g[gi] < t) gi++;
    while (ii < im.length && im[ii] < t) ii++;
    const [frr, far] = [gi / (g.length || 1), (im.length - ii) / (im.length || 1)];
    if (Math.abs(frr - far) < best.gap) best = { gap: Math.abs(frr - far), eer: (frr + far) / 2 };
    if (frrAtFar === undefined && far <= 0.001) frrAtFar = frr;
  }
  return { eer: best.eer, frr: frrAtFar ?? 1 };
}
