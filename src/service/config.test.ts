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
