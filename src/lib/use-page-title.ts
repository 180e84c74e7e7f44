import { useEffect } from 'react';
import { useBrand } from './brand';

/** The tab's title: the screen's, then the brand's name (BRAND_NAME), as the person sees it in the header. */
export function usePageTitle(title: string) {
  const { name } = useBrand();
  useEffect(() => {
    document.title = `${title} · ${name}`;
  }, [title, name]);
}
