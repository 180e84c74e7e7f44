import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { readsMrz } from '@/checks/mrz/document-reading';
import { documentSides } from '@/shared/document-sides';
import { inSentence } from '@/shared/glossary';
import type { DocumentType } from '@/shared/flow';
import { useFocusOnChange } from '../hooks/use-focus-on-change';
import { hasBack, type DocumentCapture } from '../lib/wizard-model';
import type { CapturedInfo } from '../hooks/use-capture-check';
import { CaptureField } from './capture-field';
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
  part,
  goPart,
}: StepProps<'document'>) {
  const { t } = useTranslation('wizard');
  const { document: spec, group } = step;
  const regionId = useId();
  const current = capture?.kind === 'document' ? capture : undefined;
  // The sub-screen comes from the wizard (history, links): a retake opens on the refused side, a
  // side that cannot be shown yet falls back, and a document already begun skips the choice.
  const wanted: Screen | undefined =
    part === 'choose' || part === 'front' || part === 'back' ? part : undefined;
  // A document of another type or country is fixed on the choice screen, so the retake may go there.
  const mismatch =
    retake?.code === 'documentPhoto.typeMismatch' || retake?.code === 'documentPhoto.countryMismatch';
  let screen: Screen;
  if (mismatch && wanted === 'choose') screen = 'choose';
  else if (retake?.part === 'front' || retake?.part === 'back') screen = retake.part;
  else if (wanted === 'back')
    screen = current?.front && hasBack(current) ? 'back' : current ? 'front' : 'choose';
  else if (wanted === 'front') screen = current ? 'front' : 'choose';
  else if (wanted === 'choose') screen = 'choose';
  else screen = current?.front ? 'front' : 'choose';
  const setScreen = (next: Screen) => goPart?.(next);
  // Nothing is chosen for the person where there is a choice to make.
  const only = <T,>(options: readonly T[]) => (options.length === 1 ? options[0] : undefined);
  const [type, setType] = useState<DocumentType | undefined>(current?.type ?? only(spec.types));
  const [country, setCountry] = useState<string | undefined>(current?.country ?? only(spec.countries));
  const regionsOf = (c: string | undefined) => (c ? (spec.regions[c] ?? []) : []);
  const [region, setRegion] = useState(current?.region ?? only(regionsOf(country)) ?? '');
  const [chooseError, setChooseError] = useState(false);
  // A photo refused at capture because its MRZ or barcode names another type or country.
  const [refusedChoice, setRefusedChoice] = useState(false);

  const container = useFocusOnChange<HTMLDivElement>(screen);
  const typeName = type ? t(`documentTypes.${type}`) : '';
  const sides = type && country ? documentSides(type, country) : 'one';

  function choose(event: FormEvent) {
    event.preventDefault();
    const regions = regionsOf(country);
    if (!type || !country || (regions.length > 0 && !region)) {
      setChooseError(true);
      return;
    }
    const chosenRegion = regions.length ? region : undefined;
    const same =
      current && current.type === type && current.country === country && current.region === chosenRegion;
    const capture: DocumentCapture = same
      ? current
      : { kind: 'document', type, country, ...(chosenRegion ? { region: chosenRegion } : {}) };
    save(capture);
    setScreen('front');
  }

  const base = (): DocumentCapture =>
    current ?? {
      kind: 'document',
      type: type ?? spec.types[0],
      country: country ?? spec.countries[0],
      ...(region ? { region } : {}),
    };

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
            invalid={chooseError && !country}
            onChange={(chosen) => {
              setCountry(chosen);
              setRegion(only(regionsOf(chosen)) ?? '');
            }}
          />
          {regions.length > 0 && (
            <div className="field">
              <label htmlFor={regionId}>{t('document.region')}</label>
              <select
                id={regionId}
                value={region}
                aria-invalid={chooseError && !region}
                onChange={(event) => setRegion(event.target.value)}
              >
                <option value="">{t('fields.choose')}</option>
                {regions.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </div>
          )}
          {chooseError && (
            <p className="error" role="alert">
              {t('document.chooseMissing')}
            </p>
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

  // The banner goes once a new capture replaced the refused one (a good retake is not "not accepted").
  const retakeHere =
    retake && retake.part === screen && !(screen === 'front' ? current?.front : current?.back)
      ? retake.code
      : null;
  const claim = { type: base().type, country: base().country };
  // What the document's MRZ or barcode must show on this side, and the choice it is held against.
  const reading = (page: 'front' | 'back') => ({
    pdf417: page === 'back' && spec.requires.includes('pdf417'),
    pdf417Step: spec.requires.includes('pdf417'),
    mrz: readsMrz({ requires: spec.requires, ...claim, page }),
    claim,
    page,
    onRefused: (code: string) =>
      setRefusedChoice(code === 'documentPhoto.typeMismatch' || code === 'documentPhoto.countryMismatch'),
  });
  const changeChoice = (mismatch || refusedChoice) && (
    <button
      type="button"
      className="secondary"
      onClick={() => {
        setRefusedChoice(false);
        setScreen('choose');
      }}
    >
      {t('document.changeChoice')}
    </button>
  );
  // Every text around it names the document mid-sentence ("the front of your passport").
  const docName = inSentence(current ? t(`documentTypes.${current.type}`) : typeName);

  if (screen === 'front') {
    return (
      <div className="stack" ref={container}>
        {retakeHere && <ProblemMessage code={retakeHere} title={t('retake.title')} />}
        {changeChoice}
        <p className="muted">{t('document.frontHint', { document: docName })}</p>
        <CaptureField
          key="front"
          label={t('document.front', { document: docName })}
          accept="image"
          checkKind="document"
          camera={{ facing: 'environment', guide: 'document' }}
          {...reading('front')}
          value={current?.front}
          getBlob={getBlob}
          onFile={capturedPart('front')}
        />
        <div className="actions">
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
      {changeChoice}
      <p className="muted">{t('document.backHint', { document: docName })}</p>
      <CaptureField
        key="back"
        label={t('document.back', { document: docName })}
        accept="image"
        checkKind="document"
        camera={{ facing: 'environment', guide: 'document' }}
        otherSide={current?.front?.phash ? { phash: current.front.phash } : undefined}
        {...reading('back')}
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
        <button type="button" disabled={!current?.back || current.noBack} onClick={next}>
          {t('actions.continue')}
        </button>
      </div>
    </div>
  );
}
