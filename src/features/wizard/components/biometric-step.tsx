import { challengeLengthMs } from '@/checks/video/liveness-challenge';
import { useTranslation } from '@/lib/i18n';
import { promptCode } from '../lib/prompt-code';
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
        <ProblemMessage code={promptCode(retake.code, step.input)} title={t('retake.title')} />
      )}
      <p className="muted">
        {!video
          ? t('biometric.selfieHint')
          : challenge
            ? t('biometric.videoHintChallenge', { count: Math.ceil(challengeLengthMs(challenge) / 1000) })
            : t('biometric.videoHint')}
      </p>
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
