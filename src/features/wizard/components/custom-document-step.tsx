import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { inSentence } from '@/shared/glossary';
import type { CustomDocumentCapture } from '../lib/wizard-model';
import type { CapturedInfo } from '../hooks/use-capture-check';
import { CaptureField } from './capture-field';
import { ProblemMessage } from './problem-message';
import { storedExtra, type StepProps } from './step-props';

export function CustomDocumentStep({
  step,
  capture,
  retake,
  storeFile,
  getBlob,
  save,
  next,
}: StepProps<'custom-document'>) {
  const { t } = useTranslation('wizard');
  const { document: spec, group } = step;
  const current = capture?.kind === 'custom-document' ? capture : undefined;
  const [mode, setMode] = useState<'images' | 'pdf'>(current?.mode ?? 'images');
  const name = spec.name ?? t('customDocument.defaultName');
  // The hint and the labels of the sides name it mid-sentence ("the front of your proof of income").
  const inText = inSentence(name);
  const twoSides = spec.sides === 'two';
  // Photos and a PDF are kept side by side: switching the mode back and forth loses neither.
  const value: CustomDocumentCapture = { kind: 'custom-document', ...current, mode };

  const stored = (page: 'front' | 'back' | 'multi') => async (file: File, info: CapturedInfo) => {
    const saved = await storeFile(file, `custom-${group}-${page}`, storedExtra(info));
    save(page === 'multi' ? { ...value, mode: 'pdf', pdf: saved } : { ...value, [page]: saved });
  };

  const retakenAgain =
    !!retake && !!(retake.part === 'multi' ? value.pdf : retake.part === 'back' ? value.back : value.front);
  const complete = mode === 'pdf' ? !!value.pdf : !!value.front && (!twoSides || !!value.back);
  const show = (page: 'front' | 'back') => !retake || retake.part === page;

  return (
    <div className="stack">
      {retake && !retakenAgain && <ProblemMessage code={retake.code} title={t('retake.title')} />}
      <p className="muted">{t('customDocument.hint', { document: inText })}</p>
      {spec.multiPage && !retake && (
        <fieldset>
          <legend>{t('customDocument.modeLegend')}</legend>
          {(['images', 'pdf'] as const).map((option) => (
            <label key={option} className="choice">
              <input
                type="radio"
                name={`mode-${group}`}
                checked={mode === option}
                onChange={() => {
                  setMode(option);
                  if (current) save({ ...current, mode: option });
                }}
              />
              {option === 'images' ? t('customDocument.modeImages') : t('customDocument.modePdf')}
            </label>
          ))}
        </fieldset>
      )}
      {mode === 'pdf' ? (
        <CaptureField
          key="multi"
          label={t('customDocument.pdfLabel', { document: name })}
          accept="pdf"
          checkKind="custom-document"
          value={value.pdf}
          getBlob={getBlob}
          onFile={stored('multi')}
        />
      ) : (
        <>
          {show('front') && (
            <CaptureField
              key="front"
              label={
                twoSides
                  ? t('customDocument.front', { document: inText })
                  : t('customDocument.single', { document: inText })
              }
              accept={twoSides ? 'image' : 'image-or-pdf'}
              checkKind="custom-document"
              camera={{ facing: 'environment', guide: 'document' }}
              maxPdfPages={spec.multiPage ? undefined : 1}
              value={value.front}
              getBlob={getBlob}
              onFile={stored('front')}
            />
          )}
          {twoSides && show('back') && (
            <CaptureField
              key="back"
              label={t('customDocument.back', { document: inText })}
              accept="image"
              checkKind="custom-document"
              camera={{ facing: 'environment', guide: 'document' }}
              otherSide={value.front?.phash ? { phash: value.front.phash } : undefined}
              value={value.back}
              getBlob={getBlob}
              onFile={stored('back')}
            />
          )}
        </>
      )}
      <div className="actions">
        <button type="button" disabled={!complete} onClick={next}>
          {t('actions.continue')}
        </button>
      </div>
    </div>
  );
}
