import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { challengeLengthMs, type ChallengeVerdict, type CuePhase } from '@/checks/video/liveness-challenge';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import { CAPTURE_NS } from './capture-i18n';
import type { UnavailableReason } from './media-stream';
import { useMediaStream } from './use-media-stream';
import { pickRecorderType, recordingFileName } from './recorder-type';
import { useChallengeGuide } from './use-challenge-guide';
import './capture.css';

type Props = {
  seconds: number;
  /** The service's active challenge: the clip lasts as long as its cues ask, each shown at its time. */
  challenge?: LivenessChallenge;
  onRecorded: (file: File) => void;
  onUnavailable: (reason: UnavailableReason) => void;
};

type Phase =
  | { name: 'idle'; empty?: boolean }
  | { name: 'countdown'; left: number }
  | { name: 'recording'; left: number }
  | { name: 'review'; file: File; url: string };

const GET_READY_SECONDS = 3;
/**
 * The challenge's recording goes on this long past its length: the recorder starts a little after
 * it is asked to, and the last movement must be in the clip.
 */
const CHALLENGE_EXTRA_MS = 400;
/**
 * A recording whose time is up before the camera sent anything goes on this many seconds more: on
 * a loaded machine a 1 s clip once came out empty (0 bytes), which the video check then refuses.
 */
const EMPTY_GRACE_SECONDS = 5;
const FRONT_CAMERA: MediaTrackConstraints = {
  facingMode: { ideal: 'user' },
  width: { ideal: 1280 },
  height: { ideal: 720 },
};
// Voice is asked for (the service's liveness videos are "voice videos"), but a device without a
// microphone still records.
const STREAMS: MediaStreamConstraints[] = [
  { audio: true, video: FRONT_CAMERA },
  { audio: false, video: FRONT_CAMERA },
];

/** Front-camera recording of `seconds` seconds after a countdown, with playback, retake and use. */
export function VideoRecorder({ seconds, challenge, onRecorded, onUnavailable }: Props) {
  const { t } = useTranslation(CAPTURE_NS);
  const { videoRef, stream } = useMediaStream(STREAMS, onUnavailable);
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const recorder = useRef<MediaRecorder | null>(null);
  // Bytes the recorder has given so far, and the seconds it went on past its time waiting for any.
  const received = useRef(0);
  const graceUsed = useRef(0);
  // When the recording ends (performance.now()). Its time is kept by the clock, not by counting
  // ticks: on a busy page each tick comes late, and twelve late ticks made a challenge clip
  // longer than the 12 s the service reads, so the last action seen by the guide fell outside.
  const deadline = useRef(0);
  // When the recording started (performance.now()): the challenge's cues count from it.
  const [startedAt, setStartedAt] = useState(0);

  // Called from the countdown's timer: reads the current stream and props.
  const startRecording = useEffectEvent(() => {
    if (!stream) return;
    if (typeof MediaRecorder !== 'function') return onUnavailable('error');
    const type = pickRecorderType(stream.getAudioTracks().length > 0, (mime) =>
      MediaRecorder.isTypeSupported(mime),
    );
    let media: MediaRecorder;
    try {
      media = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    } catch {
      onUnavailable('error');
      return;
    }
    const chunks: Blob[] = [];
    received.current = 0;
    graceUsed.current = 0;
    media.addEventListener('dataavailable', (event) => {
      if (!event.data.size) return;
      chunks.push(event.data);
      received.current += event.data.size;
    });
    media.addEventListener('stop', () => {
      if (!chunks.length) return setPhase({ name: 'idle', empty: true });
      const mime = (media.mimeType || type || 'video/webm').split(';')[0];
      const file = new File(chunks, recordingFileName(mime), { type: mime });
      setPhase({ name: 'review', file, url: URL.createObjectURL(file) });
    });
    media.addEventListener('error', () => onUnavailable('error'));
    recorder.current = media;
    const totalMs = challenge ? challengeLengthMs(challenge) + CHALLENGE_EXTRA_MS : seconds * 1000;
    const begin = () => {
      const now = performance.now();
      deadline.current = now + totalMs;
      setStartedAt(now);
    };
    // The clip's time starts when the recorder does, which a busy phone reports late (its `start`
    // event): the cues count from there, so that a movement made at its cue is at its cue in the clip.
    media.addEventListener('start', begin, { once: true });
    media.start(250);
    begin();
    setPhase({ name: 'recording', left: Math.ceil(totalMs / 1000) });
  });

  const progress = useChallengeGuide(videoRef, phase.name === 'recording', startedAt, challenge);
  const verdict = phase.name === 'review' ? progress.verdict : undefined;

  // One tick per second drives the countdown; the recording's ticks wake on its deadline's
  // seconds and read the time left from the clock.
  useEffect(() => {
    if (phase.name !== 'countdown' && phase.name !== 'recording') return;
    const untilTick =
      phase.name === 'countdown' ? 1000 : Math.max(0, deadline.current - performance.now()) % 1000 || 1000;
    const timer = setTimeout(() => {
      if (phase.name === 'countdown' && phase.left > 1) setPhase({ name: 'countdown', left: phase.left - 1 });
      else if (phase.name === 'countdown') startRecording();
      else {
        const left = Math.round((deadline.current - performance.now()) / 1000);
        if (left >= 1) setPhase({ name: 'recording', left });
        else if (received.current === 0 && graceUsed.current < EMPTY_GRACE_SECONDS) {
          graceUsed.current++;
          deadline.current = performance.now() + 1000;
          setPhase({ name: 'recording', left: 1 });
        } else recorder.current?.stop();
      }
    }, untilTick);
    return () => clearTimeout(timer);
  }, [phase]);

  useEffect(() => {
    if (phase.name !== 'review') return;
    return () => URL.revokeObjectURL(phase.url);
  }, [phase]);

  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') recorder.current.stop();
    },
    [],
  );

  const live = phase.name !== 'review';
  return (
    <section className="video-recorder" aria-label={t('recorder.region')}>
      {challenge ? (
        <>
          <p>
            {t('recorder.challengeInstructions')}{' '}
            {t('recorder.challengeLength', { count: Math.ceil(challengeLengthMs(challenge) / 1000) })}
          </p>
          <ol aria-label={t('recorder.challengeList')}>
            {challenge.actions.map((action, i) => (
              <li key={i}>{t(`recorder.action.${action}`)}</li>
            ))}
          </ol>
        </>
      ) : (
        <p>{t('recorder.instructions', { count: seconds })}</p>
      )}
      <div className="camera-frame camera-mirrored" hidden={!live}>
        <video
          ref={videoRef}
          className="camera-video"
          aria-label={t('recorder.preview')}
          playsInline
          muted
          autoPlay
        />
        <div className="camera-guide camera-guide-face" aria-hidden="true" />
      </div>
      {!stream && <p aria-live="polite">{t('camera.starting')}</p>}
      <p className="video-recorder-status" aria-live="polite">
        {phase.name === 'countdown' && t('recorder.getReady', { count: phase.left })}
        {phase.name === 'recording' && !challenge && t('recorder.recording', { count: phase.left })}
        {phase.name === 'recording' && challenge && <CueLine challenge={challenge} phase={progress.phase} />}
      </p>
      {phase.name === 'recording' && challenge && progress.phase.phase === 'asked' && (
        <p role="status" aria-label={t('recorder.guideLabel')} className="video-recorder-guide">
          {progress.guide && progress.guide !== 'waiting' ? t(`recorder.guide.${progress.guide}`) : ''}
        </p>
      )}
      {verdict && challenge && <ChallengeVerdictLine challenge={challenge} verdict={verdict} />}
      {phase.name === 'idle' && phase.empty && <p role="alert">{t('recorder.empty')}</p>}
      {phase.name === 'idle' && (
        <button
          type="button"
          onClick={() => setPhase({ name: 'countdown', left: GET_READY_SECONDS })}
          disabled={!stream}
        >
          {t('recorder.start')}
        </button>
      )}
      {phase.name === 'review' && (
        <>
          {/* Muted by default: the person's own voice plays only if they unmute it. */}
          <video
            className="camera-video"
            src={phase.url}
            controls
            muted
            playsInline
            aria-label={t('recorder.playback')}
          />
          <div className="video-recorder-actions">
            <button
              type="button"
              className={verdict && !verdict.ok ? undefined : 'secondary'}
              onClick={() => setPhase({ name: 'idle' })}
            >
              {t('recorder.retake')}
            </button>
            <button
              type="button"
              className={verdict && !verdict.ok ? 'secondary' : undefined}
              onClick={() => onRecorded(phase.file)}
            >
              {t('recorder.use')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/** What the screen asks now: the cue of the asked movement at its time, facing the camera otherwise. */
function CueLine({ challenge, phase }: { challenge: LivenessChallenge; phase: CuePhase }) {
  const { t } = useTranslation(CAPTURE_NS);
  if (phase.phase !== 'asked') return <>{t(`recorder.phase.${phase.phase}`)}</>;
  return <>{t('recorder.phase.asked', { action: t(`recorder.action.${challenge.actions[phase.index]}`) })}</>;
}

/**
 * After the recording, what the guide's looks showed, judged as the service will judge the clip:
 * "every movement was seen" only when it was, and otherwise what was wrong, at once.
 */
function ChallengeVerdictLine({
  challenge,
  verdict,
}: {
  challenge: LivenessChallenge;
  verdict: ChallengeVerdict;
}) {
  const { t } = useTranslation(CAPTURE_NS);
  if (verdict.ok) return <p role="status">{t('recorder.verdict.ok')}</p>;
  const what =
    verdict.code === 'notPerformed'
      ? t('recorder.verdict.notPerformed', {
          action: t(`recorder.action.${challenge.actions[verdict.index]}`),
        })
      : t(`recorder.verdict.${verdict.code}`);
  return (
    <p role="alert">
      {what} {t('recorder.verdict.retry')}
    </p>
  );
}
