import type { TFunction } from '@/lib/i18n';
import type { ReviewDecision } from '@/shared/contract/verification';
import { flowLanguages, type Flow } from '@/shared/flow';
import { reviewReasonCodes } from '@/shared/review-reasons';
import { humanizeKey } from './format';

type Language = (typeof flowLanguages)[number];

/** The label of a reason code in the page's language: the flow's own text, else the console's. */
export function reasonLabel(t: TFunction, flow: Flow | undefined, language: Language, code: string) {
  const own = Object.values(flow?.reviewReasons ?? {})
    .flat()
    .find((reason) => reason.code === code);
  if (own) return flow?.translations?.[language]?.reviewReasons?.[code] ?? own.label;
  return t(`review.reasons.${code}`, { defaultValue: humanizeKey(code) });
}

/** The reasons offered for a decision on a verification of `flow`, labelled. */
export function reasonOptions(
  t: TFunction,
  flow: Flow | undefined,
  language: Language,
  decision: ReviewDecision,
) {
  return reviewReasonCodes(flow, decision).map((code) => ({
    code,
    label: reasonLabel(t, flow, language, code),
  }));
}
