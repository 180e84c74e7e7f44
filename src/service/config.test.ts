import { describe, expect, it } from 'vitest';
import { devDefaults } from '@/server-shared/dev-defaults';
import { loadConfig } from './config';

describe('service settings', () => {
  it('runs on the development defaults outside production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8081,
      clientId: devDefaults.SERVICE_CLIENT_ID,
      uploadWaitSeconds: 600,
      webhookRetrySeconds: [60, 180, 300, 420, 600],
      tokenTtlSeconds: 3600,
      publicUrl: 'http://127.0.0.1:8081',
      webhookUrl: 'http://127.0.0.1:8080/webhooks/verification',
    });
  });

  it('refuses development secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SERVICE_CLIENT_ID/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SERVICE_CLIENT_ID: 'prod-client',
        SERVICE_CLIENT_SECRET: devDefaults.SERVICE_CLIENT_SECRET,
        WEBHOOK_SECRET: 'w',
      }),
    ).toThrow(/SERVICE_CLIENT_SECRET/);
    const ok = loadConfig({
      NODE_ENV: 'production',
      SERVICE_CLIENT_ID: 'a',
      SERVICE_CLIENT_SECRET: 'b',
      WEBHOOK_SECRET: 'c',
    });
    expect(ok.clientSecret).toBe('b');
  });

  it('refuses malformed numbers and schedules', () => {
    expect(() => loadConfig({ UPLOAD_WAIT_SECONDS: 'soon' })).toThrow(/UPLOAD_WAIT_SECONDS/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SECONDS: '1,,x' })).toThrow(/WEBHOOK_RETRY_SECONDS/);
    expect(loadConfig({ WEBHOOK_RETRY_SECONDS: '1, 2,3', TOKEN_TTL_SECONDS: '5' })).toMatchObject({
      webhookRetrySeconds: [1, 2, 3],
      tokenTtlSeconds: 5,
    });
  });
});

describe('numeric settings are parsed strictly (issue 21)', () => {
  it('refuses blanks, hex, signs and words, naming the setting', () => {
    for (const value of [' ', '0x10', '-1', '1e3', 'ten', '10 days']) {
      expect(() => loadConfig({ RETENTION_DAYS: value })).toThrow(
        `Invalid setting RETENTION_DAYS: expected a decimal number ≥ 0, got ${JSON.stringify(value)}`,
      );
    }
    expect(() => loadConfig({ WEBHOOK_RETRY_SECONDS: '1, ,3' })).toThrow(/WEBHOOK_RETRY_SECONDS/);
    expect(loadConfig({ RETENTION_DAYS: '30', WEBHOOK_RETRY_SECONDS: '0.5, 2' })).toMatchObject({
      retentionDays: 30,
      webhookRetrySeconds: [0.5, 2],
    });
  });

  it('never keeps an expired verification longer than RETENTION_DAYS', () => {
    expect(() => loadConfig({ RETENTION_DAYS: '5', RETENTION_EXPIRED_DAYS: '30' })).toThrow(
      'Invalid setting RETENTION_EXPIRED_DAYS: expected at most RETENTION_DAYS (5), got "30"',
    );
    // The default 7 shrinks under a shorter retention; 0 means "as long as RETENTION_DAYS".
    expect(loadConfig({ RETENTION_DAYS: '3' }).retentionExpiredDays).toBe(3);
    expect(loadConfig({ RETENTION_DAYS: '30', RETENTION_EXPIRED_DAYS: '0' }).retentionExpiredDays).toBe(30);
    expect(loadConfig({}).retentionExpiredDays).toBe(7);
  });

  it('bounds PDF readings with the PDF_* settings, at least 1 each', () => {
    expect(loadConfig({}).pdfReading).toEqual({ timeLimitMs: 15_000, textPages: 20, pageTextChars: 50_000 });
    expect(
      loadConfig({ PDF_READ_TIMEOUT_MS: '5000', PDF_TEXT_PAGES: '3', PDF_PAGE_TEXT_CHARS: '20000' })
        .pdfReading,
    ).toEqual({ timeLimitMs: 5000, textPages: 3, pageTextChars: 20_000 });
    for (const name of ['PDF_READ_TIMEOUT_MS', 'PDF_TEXT_PAGES', 'PDF_PAGE_TEXT_CHARS']) {
      for (const value of ['0x10', ' ', '1.5', '0'])
        expect(() => loadConfig({ [name]: value })).toThrow(
          `Invalid setting ${name}: expected a whole number ≥ 1, got ${JSON.stringify(value)}`,
        );
    }
  });
});

describe('settings refused at start', () => {
  it('names the setting and the value, in one line', () => {
    const cases: [Record<string, string>, string][] = [
      [
        { SERVICE_PORT: '70000' },
        'Invalid setting SERVICE_PORT: expected a port number (0 to 65535), got "70000"',
      ],
      [
        { OPEN_MAX_CONCURRENT: '6.5' },
        'Invalid setting OPEN_MAX_CONCURRENT: expected a whole number ≥ 0, got "6.5"',
      ],
      [
        { SERVICE_EXTENSIONS: 'maybe' },
        'Invalid setting SERVICE_EXTENSIONS: expected on or off, got "maybe"',
      ],
      [
        { SERVICE_WEBHOOK_URL: 'ftp://x' },
        'Invalid setting SERVICE_WEBHOOK_URL: expected an http(s) URL or none, got "ftp://x"',
      ],
      [
        { TRUSTED_PROXIES: '127.0.0.1, bff' },
        'Invalid setting TRUSTED_PROXIES: expected addresses or CIDRs separated by commas, got "bff"',
      ],
      [
        { OUTBOUND_ALLOWED: '10.0.0.0/255.0.0.0' },
        'Invalid setting OUTBOUND_ALLOWED: expected origins or addresses/CIDRs separated by commas, got "10.0.0.0/255.0.0.0"',
      ],
      [
        { CREDIT_CHECK_SEGMENTS: 'a/b' },
        'Invalid setting CREDIT_CHECK_SEGMENTS: expected path segments separated by commas, got "a/b"',
      ],
      [
        { LOG_LEVEL: 'verbose' },
        'Invalid setting LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
      ],
    ];
    for (const [env, line] of cases) expect(() => loadConfig(env), line).toThrow(line);
  });

  it('reads lists, switches and URLs as before', () => {
    const config = loadConfig({
      TRUSTED_PROXIES: '',
      OUTBOUND_ALLOWED: 'http://10.0.0.5:8080, 10.1.0.0/16',
      CREDIT_CHECK_SEGMENTS: 'bureau-b, ,credit-bureau',
      SERVICE_EXTENSIONS: 'false',
      PUBLIC_URL: 'https://svc.example.com//',
      SERVICE_WEBHOOK_URL: 'none',
      FFMPEG_PATH: '/usr/bin/ffmpeg',
    });
    expect(config).toMatchObject({
      trustedProxies: [],
      outboundAllowed: ['http://10.0.0.5:8080', '10.1.0.0/16'],
      creditCheckSegments: ['credit-bureau', 'bureau-b'],
      extensions: false,
      livenessChallenge: false,
      publicUrl: 'https://svc.example.com',
      webhookUrl: null,
      ffmpegPath: '/usr/bin/ffmpeg',
    });
    expect(loadConfig({}).trustedProxies).toEqual(['127.0.0.1', '::1']);
    expect(loadConfig({ TOKEN_TTL_SECONDS: '0' }).tokenTtlSeconds).toBe(3600);
  });
});
