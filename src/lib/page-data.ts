import type { PageData } from '@/shared/contract/page-data';

let read: PageData | null | undefined;

/**
 * What the BFF wrote into this page (`<script type="application/json" id="page-data">`: the brand,
 * and on /verify/:flowId the flow); null when the page carries none (another route, the Vite dev
 * server) or it is unreadable, and the API is asked instead. The BFF parsed it with the shared
 * schema (`pageDataSchema`) before writing it, as it does every answer of its API; like those
 * answers it is read here without zod, which would add 22 kB brotli to the 80 kB first screen.
 */
export function pageData(): PageData | null {
  if (read !== undefined) return read;
  read = null;
  const text = globalThis.document?.getElementById('page-data')?.textContent;
  if (!text) return read;
  try {
    const data = JSON.parse(text) as Partial<PageData> | null;
    if (typeof data?.brand?.name === 'string') read = data as PageData;
  } catch (error) {
    console.warn('page data unreadable', error);
  }
  return read;
}
