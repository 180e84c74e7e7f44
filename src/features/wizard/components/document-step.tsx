import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { documentSides } from '@/shared/document-sides';
import type { DocumentType } from '@/shared/flow';
import { useFocusOnChange } from '../hooks/use-focus-on-change';
import type { DocumentCapture } from '../lib/wizard-model';
import { CaptureField, type CapturedInfo } from './capture-field';
import { CountryChoice } from './country-choice';
import { ProblemMessage } from './problem-message';
import { storedExtra, type StepProps } from './step-props';

type Screen = 'choose' | 'front' | 'back';

export function DocumentStep({
  step,
  capture,
  retake,
  storeFile,
  getBlob,
  save,
  next,
}: StepProps<'document'>) {
  const { t } = useTranslation('wizard');
  const { document: spec, group } = step;
  const regionId = useId();
  const current = capture?.kind === 'document' ? capture : undefined;
  // A retake opens on the refused side; after a reload, a document already begun skips the choice.
  const [screen, setScreen] = useState<Screen>(() => {
    if (retake?.part === 'front' || retake?.part === 'back') return retake.part;
    return current?.front ? 'front' : 'choose';
  });
  const [type, setType] = useState<DocumentType>(current?.type ?? spec.types[0]);
  const [country, setCountry] = useState(current?.country ?? spec.countries[0]);
  const regionsOf = (c: string) => spec.regions[c] ?? [];
  const [region, setRegion] = useState(current?.region ?? regionsOf(country)[0] ?? '');

  const container = useFocusOnChange<HTMLDivElement>(screen);
  const typeName = t(`documentTypes.${type}`);
  const sides = documentSides(type, country);

  function choose(event: FormEvent) {
    event.preventDefault();
    const regions = regionsOf(country);
    const chosenRegion = regions.length ? region || regions[0] : undefined;
    const same =
      current && current.type === type && current.country === country && current.region === chosenRegion;
    const capture: DocumentCapture = same
      ? current
      : { kind: 'document', type, country, ...(chosenRegion ? { region: chosenRegion } : {}) };
    save(capture);
    setScreen('front');
  }

  const base = (): DocumentCapture =>
    current ?? { kind: 'document', type, country, ...(region ? { region } : {}) };

  if (screen === 'choose') {
    const regions = regionsOf(country);
    return (
      <div ref={container}>
        <form onSubmit={choose} className="stack">
          <h2 tabIndex={-1}>{t('document.chooseTitle')}</h2>
          {spec.types.length > 1 ? (
            <fieldset>
              <legend>{t('document.type')}</legend>
              {spec.types.map((option) => (
                <label key={option} className="choice">
                  <input
                    type="radio"
                    name={`type-${group}`}
                    value={option}
                    checked={type === option}
                    onChange={() => setType(option)}
                  />
                  {t(`documentTypes.${option}`)}
                </label>
              ))}
            </fieldset>
          ) : (
            <p>
              {t('document.type')}: <strong>{typeName}</strong>
            </p>
          )}
          <CountryChoice
            label={t('document.country')}
            countries={spec.countries}
            value={country}
            onChange={(chosen) => {
              setCountry(chosen);
              setRegion(regionsOf(chosen)[0] ?? '');
            }}
          />
          {regions.length > 0 && (
            <div className="field">
              <label htmlFor={regionId}>{t('document.region')}</label>
              <select id={regionId} value={region} onChange={(event) => setRegion(event.target.value)}>
                {regions.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="actions">
            <button type="submit">{t('actions.continue')}</button>
          </div>
        </form>
      </div>
    );
  }

  const capturedPart = (page: 'front' | 'back') => async (file: File, info: CapturedInfo) => {
    const stored = await storeFile(file, `doc-${group}-${page}`, storedExtra(info));
    const updated: DocumentCapture = {
      ...base(),
      [page]: stored,
      ...(page === 'back' ? { noBack: false } : {}),
    };
    save(updated);
  };

  const retakeHere = retake && retake.part === screen ? retake.code : null;
  const docName = current ? t(`documentTypes.${current.type}`) : typeName;

  if (screen === 'front') {
    return (
      <div className="stack" ref={container}>
        {retakeHere && <ProblemMessage code={retakeHere} title={t('retake.title')} />}
        <p className="muted">{t('document.frontHint', { document: docName })}</p>
        <CaptureField
          key="front"
          label={t('document.front', { document: docName })}
          accept="image"
          checkKind="document"
          camera={{ facing: 'environment', guide: 'document' }}
          value={current?.front}
          getBlob={getBlob}
          onFile={capturedPart('front')}
        />
        <div className="actions">
          {!retake && (
            <button type="button" className="secondary" onClick={() => setScreen('choose')}>
              {t('actions.back')}
            </button>
          )}
          <button
            type="button"
            disabled={!current?.front}
            onClick={() =>
              current && sides !== 'one' && retake?.part !== 'front' ? setScreen('back') : next()
            }
          >
            {t('actions.continue')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="stack" ref={container}>
      {retakeHere && <ProblemMessage code={retakeHere} title={t('retake.title')} />}
      <p className="muted">{t('document.backHint', { document: docName })}</p>
      <CaptureField
        key="back"
        label={t('document.back', { document: docName })}
        accept="image"
        checkKind="document"
        camera={{ facing: 'environment', guide: 'document' }}
        otherSide={current?.front?.phash ? { phash: current.front.phash } : undefined}
        pdf417={spec.requires.includes('pdf417')}
        value={current?.noBack ? undefined : current?.back}
        getBlob={getBlob}
        onFile={capturedPart('back')}
      />
      {sides === 'one-or-two' && (
        <button
          type="button"
          className="secondary"
          onClick={() => {
            save({ ...base(), back: undefined, noBack: true });
            next();
          }}
        >
          {t('document.noBack')}
        </button>
      )}
      <div className="actions">
        {!retake && (
          <button type="button" className="secondary" onClick={() => setScreen('front')}>
            {t('actions.back')}
          </button>
        )}
        <button type="button" disabled={!current?.back || current.noBack} onClick={next}>
          {t('actions.continue')}
        </button>
      </div>
    </div>
  );
}
