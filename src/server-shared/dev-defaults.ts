/**
 * Development defaults of the settings (README.md, Settings). They let a fresh clone run with no set-up; with
 * NODE_ENV=production the service and the BFF refuse to start on any of them.
 */
export const devDefaults = {
  PORT: 8080,
  SERVICE_PORT: 8081,
  HOST: '127.0.0.1',
  DATA_DIR: './data',
  SERVICE_CLIENT_ID: 'idv-dev-client',
  SERVICE_CLIENT_SECRET: 'idv-dev-client-secret-not-for-production',
  WEBHOOK_SECRET: 'idv-dev-webhook-secret-not-for-production',
  UPLOAD_WAIT_SECONDS: 600,
  WEBHOOK_RETRY_SECONDS: '60,180,300,420,600',
} as const;

export const devSecretNames = ['SERVICE_CLIENT_ID', 'SERVICE_CLIENT_SECRET', 'WEBHOOK_SECRET'] as const;
