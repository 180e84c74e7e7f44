import { useId, useState, type ChangeEvent, type DragEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from '@/lib/i18n';
import { useMediaQuery } from '@/lib/use-media-query';
import { acceptAttribute, type AcceptKind } from '../lib/client-checks';
import { convertsPhotos } from '../hooks/use-capture-check';

const dragScreen = '(hover: hover) and (pointer: fine) and (min-width: 600px)';
// Photos in other formats are taken too: they are turned into JPEG (lib/convert-image).
const convertibleAccept = 'image/heic,image/heif,image/webp,image/avif,.heic,.heif,.webp,.avif';

type Props = {
  accept: AcceptKind;
  busy: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
  onChosen: (file: File) => void;
  /** The camera's tile, shown first when the capture has one. */
  children?: ReactNode;
};

/** A file chosen from the device, or dropped on the tiles with a mouse on a large screen. */
export function UploadTiles({ accept, busy, inputRef, onChosen, children }: Props) {
  const { t } = useTranslation('wizard');
  const inputId = useId();
  const hintId = useId();
  // Files are dragged with a mouse on a large screen; a phone is never told to drag one.
  const canDrag = useMediaQuery(dragScreen);
  const [dragging, setDragging] = useState(false);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onChosen(file);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) onChosen(file);
  }

  const uploadLabel = {
    image: t('capture.uploadPhoto'),
    video: t('capture.uploadVideo'),
    pdf: t('capture.uploadPdf'),
    'image-or-pdf': t('capture.uploadImageOrPdf'),
  }[accept];

  return (
    <div
      className={`capture-tiles${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        if (!dragging) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {children}
      <div className={`tile tile-upload${busy ? ' disabled' : ''}`}>
        <input
          ref={inputRef}
          id={inputId}
          className="tile-input"
          type="file"
          accept={
            convertsPhotos(accept)
              ? `${acceptAttribute[accept]},${convertibleAccept}`
              : acceptAttribute[accept]
          }
          onChange={onChange}
          disabled={busy}
          aria-describedby={canDrag ? hintId : undefined}
        />
        <label htmlFor={inputId}>
          <span className="tile-icon" aria-hidden="true">
            ⇪
          </span>
          {uploadLabel}
        </label>
        {canDrag && (
          <span id={hintId} className="tile-hint">
            {t('capture.dropHint')}
          </span>
        )}
      </div>
    </div>
  );
}
