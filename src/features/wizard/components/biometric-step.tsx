import { useTranslation } from '@/lib/i18n';
import { CaptureField } from './capture-field';
import { ProblemMessage } from './problem-message';
import { storedExtra, type StepProps } from './step-props';

export function BiometricStep({
  step,
  capture,
  retake,
  storeFile,
  getBlob,
  save,
  next,
  challenge,
}: StepProps<'biometric'>) {
  const { t } = useTranslation('wizard');
  const current = capture?.kind === 'biometric' ? capture : undefined;
  const video = step.input === 'selfie-video';
  return (
    <div className="stack">
      {retake && !current?.file && (
        <ProblemMessage
          // The service refuses a video whose challenge was not performed as a selfie "not taken
          // properly" (the spec has no video code for it): the prompt says what to do differently.
          code={video && retake.code === 'selfiePhoto.validationError' ? 'livenessChallenge' : retake.code}
          title={t('retake.title')}
        />
      )}
      <p className="muted">{video ? t('biometric.videoHint') : t('biometric.selfieHint')}</p>
      <CaptureField
        label={video ? t('biometric.videoLabel') : t('biometric.selfieLabel')}
        accept={video ? 'video' : 'image'}
        checkKind="selfie"
        camera={video ? 'video' : { facing: 'user', guide: 'face' }}
        {...(video && challenge ? { challenge } : {})}
        value={current?.file}
        getBlob={getBlob}
        onFile={async (file, info) => {
          const stored = await storeFile(file, video ? 'video' : 'selfie', storedExtra(info));
          save({ kind: 'biometric', file: stored });
        }}
      />
      <div className="actions">
        <button type="button" disabled={!current?.file} onClick={next}>
          {t('actions.continue')}
        </button>
      </div>
    </div>
  );
}
