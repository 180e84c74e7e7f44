/** Turns `current_balance`, `dateOfBirth` or `ip-address` into "Current balance", "Date of birth", "Ip address". */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/** Media the BFF proxies for the console (it rewrites the service's media URLs to this prefix). */
export const staffMediaPrefix = '/api/staff/media/';

export function isMediaUrl(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(staffMediaPrefix);
}

/** Whether a media value is a video, judged by the key it sits under (the URL carries no extension). */
export function isVideoKey(key: string): boolean {
  return /video|liveness/i.test(key);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function formatDateTime(iso: string | null | undefined, language: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

/**
 * A date read from a document, in words with the original text after it (staff compare it with the
 * photo). A bare `YYYY-MM-DD` is a calendar day, read in UTC so no time zone moves it.
 */
export function formatDate(value: string, language: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date)} (${value})`;
}

/** A country's name in the reader's language, falling back to its code. */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Column keys of a list of records, in the order they first appear. */
export function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** Keys whose numbers are sums of money (bank statements, credit checks). */
const moneyKeys = new Set(['amount', 'balance', 'current_balance', 'available_balance', 'totalDebt']);

/**
 * How a number under a key reads: money in its currency, a score on its scale ("82.6 / 100", or a
 * similarity as a percentage), else a number in the page's language.
 */
export interface NumberContext {
  currency?: string | null;
  score?: 'percent' | { max: number };
}

export function formatNumber(
  key: string,
  value: number,
  language: string,
  context: NumberContext = {},
): { text: string; scale?: { max: number } } {
  if (moneyKeys.has(key) && context.currency && /^[A-Z]{3}$/.test(context.currency)) {
    try {
      return {
        text: new Intl.NumberFormat(language, { style: 'currency', currency: context.currency }).format(
          value,
        ),
      };
    } catch {
      // An unknown currency code reads as a plain number below.
    }
  }
  // The pass mark is shown as it is set, to its two decimals.
  if ((key === 'score' || key === 'passMark') && context.score === 'percent')
    return {
      text: new Intl.NumberFormat(language, {
        style: 'percent',
        maximumFractionDigits: key === 'passMark' ? 2 : 1,
      }).format(value / 100),
    };
  const text = new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);
  if (key === 'score' && typeof context.score === 'object') return { text, scale: context.score };
  return { text };
}
