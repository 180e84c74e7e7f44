import type { CustomFieldDefinition, Flow, FlowTexts } from '@/shared/flow';
import type { WizardStep } from './steps';

/** The flow's own texts in a language, each falling back to the flow's (English) text. */
export function flowTexts(flow: Pick<Flow, 'translations'>, language: string): FlowTexts {
  const base = language.slice(0, 2) as keyof NonNullable<Flow['translations']>;
  return flow.translations?.[base] ?? {};
}

export const flowName = (flow: Pick<Flow, 'name' | 'translations'>, language: string) =>
  flowTexts(flow, language).name ?? flow.name;

/** What the flow collects and why, to end "<brand> receives …" (the consent's notice). */
export const consentPurpose = (flow: Pick<Flow, 'consent' | 'translations'>, language: string) =>
  flowTexts(flow, language).purpose ?? flow.consent?.purpose;

export const customDocumentName = (
  flow: Pick<Flow, 'translations'>,
  language: string,
  document: { type: string; name?: string },
) => flowTexts(flow, language).documents?.[document.type] ?? document.name;

export const fieldLabel = (
  flow: Pick<Flow, 'translations'>,
  language: string,
  field: Pick<CustomFieldDefinition, 'name' | 'label'>,
) => flowTexts(flow, language).fields?.[field.name]?.label ?? field.label ?? field.name;

export const fieldHint = (
  flow: Pick<Flow, 'translations'>,
  language: string,
  field: Pick<CustomFieldDefinition, 'name' | 'hint'>,
) => flowTexts(flow, language).fields?.[field.name]?.hint ?? field.hint;

export const optionLabel = (
  flow: Pick<Flow, 'translations'>,
  language: string,
  field: Pick<CustomFieldDefinition, 'name' | 'options'>,
  value: string,
) =>
  flowTexts(flow, language).fields?.[field.name]?.options?.[value] ??
  field.options?.find((o) => o.value === value)?.label ??
  value;

/**
 * The steps with the flow's texts in a language (custom document names, field labels, hints and
 * option labels): the screens show them as they are, and nothing else about a step changes.
 */
export function localizeSteps(steps: WizardStep[], flow: Pick<Flow, 'translations'>, language: string) {
  const texts = flowTexts(flow, language);
  if (!texts.documents && !texts.fields) return steps;
  return steps.map((step): WizardStep => {
    if (step.kind === 'custom-document') {
      const name = texts.documents?.[step.document.type];
      return name ? { ...step, document: { ...step.document, name } } : step;
    }
    if (step.kind === 'custom-fields') {
      return {
        ...step,
        fields: step.fields.map((field) => ({
          ...field,
          label: fieldLabel(flow, language, field),
          ...(fieldHint(flow, language, field) ? { hint: fieldHint(flow, language, field) } : {}),
          ...(field.options
            ? {
                options: field.options.map((o) => ({
                  value: o.value,
                  label: optionLabel(flow, language, field, o.value),
                })),
              }
            : {}),
        })),
      };
    }
    return step;
  });
}
