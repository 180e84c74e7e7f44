import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n';

type CopyState = 'idle' | 'copied' | 'failed';

/** A link and a QR code to continue a flow on a phone. */
export function PhoneHandoff({ flowId, flowName }: { flowId: string; flowName: string }) {
  const { t } = useTranslation('console');
  const url = `${window.location.origin}/verify/${encodeURIComponent(flowId)}`;
  const [copy, setCopy] = useState<CopyState>('idle');
  const [qrShown, setQrShown] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const [qrFailed, setQrFailed] = useState(false);
  const linkId = useId();
  const qrId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!qrShown || qr) return;
    let cancelled = false;
    // qrcode loads only when a QR code is asked for: most visits never need it.
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(url, { margin: 2, width: 240, errorCorrectionLevel: 'M' }))
      .then((dataUrl) => !cancelled && setQr(dataUrl))
      .catch(() => !cancelled && setQrFailed(true));
    return () => {
      cancelled = true;
    };
  }, [qrShown, qr, url]);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopy('copied');
    } catch {
      setCopy('failed');
      inputRef.current?.select();
    }
  };

  return (
    <div className="handoff">
      <h3>{t('flows.phone.heading')}</h3>
      <div className="field">
        <label htmlFor={linkId}>{t('flows.phone.link')}</label>
        <div className="inline">
          <input
            id={linkId}
            ref={inputRef}
            type="url"
            readOnly
            value={url}
            onFocus={(e) => e.target.select()}
          />
          <button type="button" className="secondary" onClick={() => void copyLink()}>
            {t('flows.phone.copy')}
          </button>
        </div>
        <p role="status" className={copy === 'failed' ? 'error' : 'ok'}>
          {copy === 'copied' ? t('flows.phone.copied') : copy === 'failed' ? t('flows.phone.copyFailed') : ''}
        </p>
      </div>
      <button
        type="button"
        className="secondary"
        aria-expanded={qrShown}
        aria-controls={qrId}
        onClick={() => setQrShown((shown) => !shown)}
      >
        {qrShown ? t('flows.phone.hideQr') : t('flows.phone.showQr')}
      </button>
      <div id={qrId} className="qr" hidden={!qrShown}>
        {qrShown && qr && (
          <img src={qr} width={240} height={240} alt={t('flows.phone.qrAlt', { name: flowName })} />
        )}
        {qrShown && !qr && !qrFailed && <p role="status">{t('common.loading')}</p>}
        {qrFailed && <p role="alert">{t('flows.phone.qrFailed')}</p>}
      </div>
    </div>
  );
}
