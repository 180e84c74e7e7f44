import { describe, expect, it } from 'vitest';
import { inputsFieldSchema } from '@/shared/contract/send-input';
import { buildSteps } from './steps';
import {
  failuresToRetake,
  heldBackInputs,
  isStepComplete,
  keepValidResults,
  pendingInputs,
  planInputs,
  uploadNameOf,
  withoutPart,
  type Capture,
  type StoredFile,
} from './wizard-model';

const file = (key: string, type = 'image/jpeg', name = 'IMG 001.JPG'): StoredFile => ({
  key,
  name,
  size: 1000,
  type,
});

const steps = buildSteps({
  merits: [
    {
      type: 'document-verification',
      documents: [
        { types: ['national-id'], countries: ['BR', 'AR'], regions: {}, requires: [] },
        { types: ['passport'], countries: ['AR'], regions: {}, requires: [] },
      ],
    },
    { type: 'biometric-verification', input: 'selfie-video' },
    {
      type: 'custom-document',
      documents: [{ type: 'custom-proof-of-income', multiPage: true, sides: 'one' }],
    },
    {
      type: 'custom-fields',
      country: 'MX',
      fields: [{ name: 'curp', type: 'text', required: true, mapping: { country: 'MX', key: 'curp' } }],
    },
    { type: 'bank-account-data', countries: ['BR'], institutions: [{ institutionId: 'b1', name: 'Bank' }] },
  ],
});

const captures: Record<string, Capture> = {
  'document-0': {
    kind: 'document',
    type: 'national-id',
    country: 'AR',
    front: file('f0'),
    back: file('b0', 'image/png'),
  },
  'document-1': { kind: 'document', type: 'passport', country: 'AR', front: file('f1') },
  biometric: { kind: 'biometric', file: file('v', 'video/webm', 'rec.webm') },
  'custom-document-2': {
    kind: 'custom-document',
    mode: 'pdf',
    pdf: file('p', 'application/pdf', 'income.pdf'),
  },
  'custom-fields': {
    kind: 'custom-fields',
    values: { curp: 'X' },
    fields: [
      {
        name: 'curp',
        type: 'atomic',
        atomicFieldParams: { type: 'text', value: 'X', mapping: { country: 'MX', key: 'curp' } },
      },
    ],
  },
  bank: {
    kind: 'bank',
    country: 'BR',
    institutionId: 'b1',
    file: file('s', 'application/pdf', 'statement.pdf'),
    password: 'pw',
  },
};

describe('planInputs', () => {
  const planned = planInputs(steps, captures);

  it('lists the inputs in flow order with groups, safe unique file names and valid descriptors', () => {
    expect(planned.map((i) => i.id)).toEqual([
      'doc-0-front',
      'doc-0-back',
      'doc-1-front',
      'video',
      'custom-2-multi',
      'fields',
      'bank',
    ]);
    expect(planned.map((i) => i.file?.uploadName ?? null)).toEqual([
      'doc-0-front.jpg',
      'doc-0-back.png',
      'doc-1-front.jpg',
      'video.webm',
      'custom-2-multi.pdf',
      null,
      'bank.pdf',
    ]);
    expect(planned.map((i) => i.file?.field ?? null)).toEqual([
      'document',
      'document',
      'document',
      'video',
      'custom-document',
      null,
      'bank-document',
    ]);
    expect(inputsFieldSchema.safeParse(planned.map((i) => i.descriptor)).success).toBe(true);
    expect(planned[1].descriptor).toEqual({
      inputType: 'document-photo',
      group: 0,
      data: { type: 'national-id', country: 'AR', page: 'back', filename: 'doc-0-back.png' },
    });
    expect(planned.at(-1)?.descriptor).toMatchObject({ data: { password: 'pw', institutionId: 'b1' } });
  });

  it('leaves out the back of a document the person said has none', () => {
    const noBack = {
      ...captures,
      'document-0': { ...captures['document-0'], country: 'BR', noBack: true } as Capture,
    };
    const ids = planInputs(steps, noBack).map((i) => i.id);
    expect(ids).not.toContain('doc-0-back');
    expect(
      isStepComplete(steps[0], {
        kind: 'document',
        type: 'national-id',
        country: 'BR',
        front: file('x'),
        noBack: true,
      }),
    ).toBe(true);
    expect(
      isStepComplete(steps[0], { kind: 'document', type: 'national-id', country: 'AR', front: file('x') }),
    ).toBe(false);
  });

  it('keeps outcomes of unchanged inputs only, resends what is not accepted, retakes the first real failure first', () => {
    const failed = (code: string) => ({
      state: 'failed' as const,
      error: { type: 'ValidationError', code: code as never, message: '' },
    });
    const results = {
      'doc-0-front': { state: 'accepted' as const },
      'doc-0-back': failed('documentPhoto.blurryText'),
      'doc-1-front': failed('documentPhoto.FirstInputNotProcessed'),
      video: failed('voiceVideo.noFace'),
    };
    expect(failuresToRetake(planned, results).map((i) => i.id)).toEqual(['doc-0-back', 'video']);
    expect(heldBackInputs(planned, results).map((i) => i.id)).toEqual(['doc-1-front']);
    const retaken = {
      ...captures,
      'document-0': { ...captures['document-0'], back: file('b0-new') } as Capture,
    };
    const kept = keepValidResults(planned, planInputs(steps, retaken), results);
    expect(Object.keys(kept)).toEqual(['doc-0-front', 'doc-1-front', 'video']);
    expect(pendingInputs(planInputs(steps, retaken), kept).map((i) => i.id)).toEqual([
      'doc-0-back',
      'doc-1-front',
      'video',
      'custom-2-multi',
      'fields',
      'bank',
    ]);
  });

  it('names uploads from the type, never from a person-given name', () => {
    expect(uploadNameOf('selfie', file('k', 'image/png', '../../etc/passwd'))).toBe('selfie.png');
    expect(uploadNameOf('video', file('k', '', 'clip.MOV'))).toBe('video.mov');
  });
});

describe('withoutPart', () => {
  it('hides the refused file during a retake, not the new one, and keeps a statement for a password retake', () => {
    const doc = captures['document-0'];
    expect(withoutPart(doc, 'back', 'b0')).toMatchObject({ front: { key: 'f0' }, back: undefined });
    expect(withoutPart({ ...doc, back: file('b1') } as Capture, 'back', 'b0')).toMatchObject({
      back: { key: 'b1' },
    });
    const bank = captures.bank;
    expect(withoutPart(bank, 'file', undefined)).toMatchObject({ file: { key: 's' } });
    expect(withoutPart(bank, 'file', 's')).toMatchObject({ file: undefined });
  });
});
