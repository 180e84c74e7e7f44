import { describe, expect, it } from 'vitest';
import {
  columnsOf,
  countryName,
  formatDate,
  formatDateTime,
  humanizeKey,
  isMediaUrl,
  isVideoKey,
} from './format';

describe('format', () => {
  it('turns keys of any case into words', () => {
    expect(humanizeKey('current_balance')).toBe('Current balance');
    expect(humanizeKey('dateOfBirth')).toBe('Date of birth');
    expect(humanizeKey('ip-address')).toBe('Ip address');
    expect(humanizeKey('')).toBe('');
  });

  it('recognises the media proxy and video keys', () => {
    expect(isMediaUrl('/api/staff/media/abc')).toBe(true);
    expect(isMediaUrl('https://elsewhere.example/media/abc')).toBe(false);
    expect(isMediaUrl(42)).toBe(false);
    expect(isVideoKey('videoUrl')).toBe(true);
    expect(isVideoKey('selfieUrl')).toBe(false);
  });

  it('lists the columns of records in first-seen order', () => {
    expect(
      columnsOf([
        { a: 1, b: 2 },
        { c: 3, a: 4 },
      ]),
    ).toEqual(['a', 'b', 'c']);
  });

  it('names countries in the reader language and keeps unknown input', () => {
    expect(countryName('AR', 'en')).toBe('Argentina');
    expect(countryName('BR', 'pt')).toBe('Brasil');
    expect(countryName('not a code', 'en')).toBe('not a code');
  });

  it('formats times and passes through what is not a date', () => {
    expect(formatDateTime(null, 'en')).toBeNull();
    expect(formatDateTime('not a date', 'en')).toBe('not a date');
    expect(formatDateTime('2026-01-02T03:04:05Z', 'en')).toMatch(/2026/);
    expect(formatDate('1990-01-02', 'en')).toBe('January 2, 1990 (1990-01-02)');
    expect(formatDate('unreadable', 'en')).toBe('unreadable');
  });
});
