import { describe, expect, it } from 'vitest';
import { isSpaRoute } from './spa';

describe('SPA routes', () => {
  it('knows its own addresses, so that any other one is answered 404', () => {
    for (const url of [
      '/',
      '/verify/ar-national-id',
      '/verify/x?step=2-front',
      '/handoff/abc',
      '/console',
      '/console/verifications/1',
    ])
      expect(isSpaRoute(url), url).toBe(true);
    for (const url of ['/nope', '/verify', '/verify/a/b', '/index.htm', '/handoff'])
      expect(isSpaRoute(url), url).toBe(false);
  });
});
