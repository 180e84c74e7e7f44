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
        /^RETENTION_DAYS must be a non-negative decimal/,
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
      /RETENTION_EXPIRED_DAYS \(30\) must not exceed RETENTION_DAYS \(5\)/,
    );
    // The default 7 shrinks under a shorter retention; 0 means "as long as RETENTION_DAYS".
    expect(loadConfig({ RETENTION_DAYS: '3' }).retentionExpiredDays).toBe(3);
    expect(loadConfig({ RETENTION_DAYS: '30', RETENTION_EXPIRED_DAYS: '0' }).retentionExpiredDays).toBe(30);
    expect(loadConfig({}).retentionExpiredDays).toBe(7);
  });
});
