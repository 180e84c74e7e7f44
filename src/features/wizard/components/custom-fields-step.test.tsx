// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { flowSchema } from '@/shared/flow';
import { addTranslations, setLanguage } from '@/lib/i18n';
import mxFlow from '../../../service/verification/flows/mx-ine-full.json';
import { buildSteps } from '../lib/steps';
import type { Capture } from '../lib/wizard-model';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import CustomFieldsStep from './custom-fields-step';

// The form built from the mx-ine-full flow's field definitions, in a DOM: labels, the shared
// schema's refusals announced per field, and the descriptor's fields with their mappings.
beforeAll(async () => {
  addTranslations('wizard', { en, es, pt });
  await setLanguage('en');
});
afterEach(cleanup);

const step = buildSteps(flowSchema.parse(mxFlow)).find((s) => s.kind === 'custom-fields');
if (step?.kind !== 'custom-fields') throw new Error('mx-ine-full has custom fields');

function renderStep(capture?: Capture) {
  const save = vi.fn<(capture: Capture) => void>();
  const next = vi.fn();
  render(
    <Suspense fallback={null}>
      <CustomFieldsStep
        step={step as Extract<typeof step, { kind: 'custom-fields' }>}
        capture={capture}
        storeFile={() => Promise.reject(new Error('no files here'))}
        getBlob={() => Promise.resolve(undefined)}
        save={save}
        next={next}
      />
    </Suspense>,
  );
  return { save, next, user: userEvent.setup() };
}

describe('CustomFieldsStep', () => {
  it('labels every field and announces what the shared schema refuses, field by field', async () => {
    const { save, next, user } = renderStep();
    await user.type(await screen.findByRole('textbox', { name: /CURP/ }), 'not-a-curp');
    await user.click(screen.getByRole('button', { name: en.actions.continue }));

    const curp = screen.getByRole('textbox', { name: /CURP/ }) as HTMLInputElement;
    expect(curp.getAttribute('aria-invalid')).toBe('true');
    // Typed letters are upper-cased; the message names the field and its rule.
    expect(curp.value).toBe('NOT-A-CURP');
    const described = curp
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('CURP: 18 characters: letters and digits, as on your INE.');
    expect(screen.getByText('Fill in RFC.')).toBeTruthy();
    for (const name of [/RFC/, /Occupation/, /I declare that the information I gave is true/]) {
      const control = screen.getAllByLabelText(name)[0];
      expect(control.getAttribute('aria-invalid')).toBe('true');
    }
    // Optional and empty is fine.
    const since = screen.getByRole('group', { name: /Employed since/ });
    expect(within(since).getByRole('textbox', { name: 'Day' }).getAttribute('aria-invalid')).toBe('false');
    expect(save).not.toHaveBeenCalled();
    expect(next).not.toHaveBeenCalled();
  });

  it('saves the values and the descriptor fields, mappings included, then moves on', async () => {
    const { save, next, user } = renderStep();
    await user.type(await screen.findByRole('textbox', { name: /CURP/ }), 'GODE561231HDFRRN04');
    await user.type(screen.getByRole('textbox', { name: /RFC/ }), 'GODE561231GR8');
    await user.selectOptions(screen.getByRole('combobox', { name: /Occupation/ }), 'student');
    await user.click(screen.getByRole('checkbox', { name: /I declare that the information I gave is true/ }));
    await user.click(screen.getByRole('button', { name: en.actions.continue }));

    expect(next).toHaveBeenCalledOnce();
    const saved = save.mock.calls[0][0];
    if (saved.kind !== 'custom-fields') throw new Error('custom fields expected');
    expect(saved.values).toMatchObject({
      curp: 'GODE561231HDFRRN04',
      occupation: 'student',
      declaration: 'true',
    });
    expect(saved.fields.find((f) => f.name === 'curp')?.atomicFieldParams).toEqual({
      type: 'text',
      value: 'GODE561231HDFRRN04',
      mapping: { country: 'MX', key: 'curp' },
    });
    expect(saved.fields.find((f) => f.name === 'startDate')?.atomicFieldParams.value).toBe('');
  });

  it("asks a date in the chosen language's order and words, never the browser's; a partial one is refused", async () => {
    const { save, user } = renderStep();
    await user.type(await screen.findByRole('textbox', { name: /CURP/ }), 'GODE561231HDFRRN04');
    await user.type(screen.getByRole('textbox', { name: /RFC/ }), 'GODE561231GR8');
    await user.selectOptions(screen.getByRole('combobox', { name: /Occupation/ }), 'student');
    await user.click(screen.getByRole('checkbox', { name: /I declare that the information I gave is true/ }));
    const since = screen.getByRole('group', { name: /Employed since/ });
    // English writes the month first, by its name.
    const labels = [...since.querySelectorAll('label')].map((l) => l.textContent);
    expect(labels).toEqual(['Month', 'Day', 'Year']);
    await user.selectOptions(within(since).getByRole('combobox', { name: 'Month' }), 'February');
    await user.type(within(since).getByRole('textbox', { name: 'Day' }), '30');
    await user.click(screen.getByRole('button', { name: en.actions.continue }));
    expect(await screen.findByText('Employed since: enter a real date.')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();
    await user.type(within(since).getByRole('textbox', { name: 'Year' }), '2020');
    await user.click(screen.getByRole('button', { name: en.actions.continue }));
    expect(await screen.findByText('Employed since: enter a real date.')).toBeTruthy();
    await user.clear(within(since).getByRole('textbox', { name: 'Day' }));
    await user.type(within(since).getByRole('textbox', { name: 'Day' }), '1');
    await user.click(screen.getByRole('button', { name: en.actions.continue }));
    const saved = save.mock.calls[0][0];
    if (saved.kind !== 'custom-fields') throw new Error('custom fields expected');
    expect(saved.values.startDate).toBe('2020-02-01');
  });

  it('comes back filled after a reload, and speaks Spanish', async () => {
    await setLanguage('es');
    try {
      renderStep({
        kind: 'custom-fields',
        values: {
          curp: 'GODE561231HDFRRN04',
          rfc: 'GODE561231GR8',
          occupation: 'other',
          declaration: 'true',
        },
        fields: [],
      });
      const curp = (await screen.findByRole('textbox', { name: /CURP/ })) as HTMLInputElement;
      expect(curp.value).toBe('GODE561231HDFRRN04');
      const consent = screen.getByRole('checkbox', {
        name: /I declare that the information I gave is true/,
      }) as HTMLInputElement;
      expect(consent.checked).toBe(true);
      expect(screen.getByText(es.fields.hint)).toBeTruthy();
      // Spanish writes the day first, and the months by their Spanish names.
      const since = screen.getByRole('group', { name: /Employed since|Empleado desde/ });
      expect([...since.querySelectorAll('label')].map((l) => l.textContent)).toEqual(['Día', 'Mes', 'Año']);
      expect(within(since).getByRole('option', { name: 'febrero' })).toBeTruthy();
      expect((screen.getByRole('button', { name: es.actions.continue }) as HTMLButtonElement).disabled).toBe(
        false,
      );
    } finally {
      await setLanguage('en');
    }
  });
});
