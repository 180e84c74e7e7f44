import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n';

/**
 * A captioned table with column headers; rows are the children. On a screen too narrow for its
 * columns it scrolls sideways, says so above it, and its scroll area takes the keyboard focus
 * (so that arrows scroll it), instead of hiding columns with no sign.
 */
export function DataTable({
  caption,
  columns,
  className,
  children,
}: {
  caption: ReactNode;
  columns: string[];
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('console');
  const captionId = useId();
  const hintId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {overflows && (
        <p id={hintId} className="table-hint muted">
          {t('common.scrollSideways')}
        </p>
      )}
      <div
        ref={scroller}
        className={`table-scroll${overflows ? ' overflowing' : ''}`}
        {...(overflows
          ? { tabIndex: 0, role: 'region', 'aria-labelledby': captionId, 'aria-describedby': hintId }
          : {})}
      >
        <table className={className}>
          <caption id={captionId}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column, index) => (
                <th key={index} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </>
  );
}
