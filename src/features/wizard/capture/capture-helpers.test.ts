import { describe, expect, it } from 'vitest';
import { unavailableReason } from './media-stream';
import { pickRecorderType, recordingFileName } from './recorder-type';

describe('unavailableReason', () => {
  it('tells a refusal from a missing camera from anything else', () => {
    expect(unavailableReason(new DOMException('no', 'NotAllowedError'))).toBe('denied');
    expect(unavailableReason(new DOMException('no', 'NotFoundError'))).toBe('missing');
    expect(unavailableReason(new DOMException('no', 'OverconstrainedError'))).toBe('missing');
    expect(unavailableReason(new DOMException('busy', 'NotReadableError'))).toBe('error');
    expect(unavailableReason(null)).toBe('error');
  });
});

describe('pickRecorderType', () => {
  it('prefers WebM VP8 and falls back to MP4 where only that records', () => {
    const chromium = (mime: string) => mime.startsWith('video/webm');
    expect(pickRecorderType(true, chromium)).toBe('video/webm;codecs=vp8,opus');
    expect(pickRecorderType(false, chromium)).toBe('video/webm;codecs=vp8');
    const safari = (mime: string) => mime === 'video/mp4';
    expect(pickRecorderType(true, safari)).toBe('video/mp4');
    expect(pickRecorderType(true, () => false)).toBeUndefined();
  });

  it('names the file after what was recorded', () => {
    expect(recordingFileName('video/webm;codecs=vp8,opus')).toBe('selfie-video.webm');
    expect(recordingFileName('video/mp4')).toBe('selfie-video.mp4');
    expect(recordingFileName('')).toBe('selfie-video.webm');
  });
});

describe('capture translations', () => {
  it('has the same keys, all filled, in every language', async () => {
    const keys = (bundle: object, prefix = ''): string[] =>
      Object.entries(bundle).flatMap(([key, value]) =>
        typeof value === 'object' && value ? keys(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
      );
    const [en, es, pt] = await Promise.all([
      import('../locales/capture.en.json'),
      import('../locales/capture.es.json'),
      import('../locales/capture.pt.json'),
    ]);
    const english = keys(en.default).sort();
    expect(english.length).toBeGreaterThan(10);
    expect(keys(es.default).sort()).toEqual(english);
    expect(keys(pt.default).sort()).toEqual(english);
    for (const bundle of [en.default, es.default, pt.default]) {
      expect(JSON.stringify(bundle)).not.toMatch(/""/);
    }
  });
});
