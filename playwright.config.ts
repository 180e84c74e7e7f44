import { defineConfig } from '@playwright/test';
import { testSettings } from './e2e/fixtures/test-settings';

const port = testSettings.E2E_PORT;
const servicePort = port + 1;
// `E2E_DATABASE_URL`: a second product on PostgreSQL (BFF store and service outbox), on E2E_PORT + 10,
// and the `postgres` project that runs the specs in `onPostgres` against it, beside the others.
const databaseUrl = testSettings.E2E_DATABASE_URL;
const postgresPort = port + 10;
/** The specs run again against the product on PostgreSQL: a verification end to end, the console's live list. */
const onPostgres = /(wizard-happy|console-verifications)\.spec\.ts$/;
// `E2E_DIST`: a build made already (npm test builds while Vitest runs).
const prebuilt = testSettings.E2E_DIST;
/** The SPA built for the run (its servers in `${productDist}-server`). */
export const productDist = prebuilt ?? `test-results/dist-${port}`;
const dist = productDist;

/**
 * The product's settings in the end-to-end runs (a spec that needs a second product, with other
 * settings, starts `${productDist}-server/start.js` with these and its own changes).
 */
export function productEnv(port: number, servicePort: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    STATIC_DIR: dist,
    SERVICE_PORT: String(servicePort),
    DATA_DIR: dataDir,
    UPLOAD_WAIT_SECONDS: '4',
    WEBHOOK_RETRY_SECONDS: '1,1,2',
    STAFF_PASSWORD: 'e2e-staff-password',
    // The capture and console tests run against a service that has only the hosted API's
    // documented routes (and no liveness challenge), as the BFF must work against the hosted service.
    SERVICE_EXTENSIONS: 'off',
    // The sample files' markers (person, scenario) are read only with demo scenarios on; the spec
    // of the off state starts a product of its own with it off.
    DEMO_SCENARIOS: 'on',
    LOG_LEVEL: 'warn',
    // The handoff's QR code points here (a name, not the loopback address the tests browse).
    PUBLIC_BFF_URL: `http://localhost:${port}`,
    // A brand whose colour has too little contrast with white: the BFF serves a darker shade.
    BRAND_NAME: 'Demo Bank',
    BRAND_PRIMARY_COLOR: '#14b8a6',
    BRAND_FONT: '"DejaVu Sans", Verdana, sans-serif',
    BRAND_LOGO_FILE: 'e2e/fixtures/photos/brand-logo.svg',
  };
}

/** The specs whose fake camera must play in real time (see `projects`). */
const realTimeCamera = /wizard-liveness-challenge\.spec\.ts$/;

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];

const productServer = {
  reuseExistingServer: false,
  timeout: 180_000,
  // Request logs would bury the test report in CI's log; warnings and errors still show.
  stdout: 'ignore',
  stderr: 'pipe',
} as const;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `test-results/playwright-artifacts-${port}`,
  // Bounds, not speed targets (speed is measured by the benches): on a 2-core machine at less than
  // half the speed of others, with four browsers at once, tests bound at 60 s took up to 42 s.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  // Three browsers at once on two cores: a test waits on servers and timers part of its time, so
  // with two (and no traces) a quarter of the CPU was idle; with four, at a load of 17–19, fake
  // cameras and checks fell behind their bounds. E2E_WORKERS sets another number.
  workers: testSettings.E2E_WORKERS,
  // No second tries: a test that fails once is a bug to fix, in the test or the product.
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: testSettings.E2E_JSON }]],
  projects: [
    // First, so that its two long specs start early instead of ending the run alone.
    ...(databaseUrl
      ? [{ name: 'postgres', testMatch: onPostgres, use: { baseURL: `http://127.0.0.1:${postgresPort}` } }]
      : []),
    { name: 'product', testIgnore: realTimeCamera },
    // The liveness challenge films a fake camera in real time: beside three other browsers on two
    // cores, Chromium's recording kept one frame in 1.25 s, and the asked movements no longer fit
    // in the service's 12 s. It runs after the rest, its two tests side by side, a core each.
    {
      name: 'real-time camera',
      testMatch: realTimeCamera,
      dependencies: databaseUrl ? ['postgres', 'product'] : ['product'],
    },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: testSettings.CHROMIUM_PATH, args: chromiumArgs },
    // A trace records every test to keep the failed ones: about a sixth of the run's CPU (the
    // screencast, DOM snapshots and their processing), for a file CI does not keep. On when asked.
    trace: testSettings.E2E_TRACE ? 'retain-on-failure' : 'off',
    // A failed test's last screen costs nothing until a test fails.
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      // The product as `npm start` runs it, on its embedded defaults, with short timers and a fresh data dir.
      // `npm start` with its own build folders (the SPA, and the servers beside it in …-server), so
      // that parallel runs on other ports do not share dist/.
      command: `${prebuilt ? '' : `npx vite build --outDir ${dist} --emptyOutDir && `}node ${dist}-server/start.js`,
      url: `http://127.0.0.1:${port}/api/health`,
      ...productServer,
      env: productEnv(port, servicePort, `test-results/e2e-data-${Date.now()}`),
    },
    // Started after the first (Playwright starts its servers in turn), so the build is there.
    ...(databaseUrl
      ? [
          {
            command: `node ${dist}-server/start.js`,
            url: `http://127.0.0.1:${postgresPort}/api/health`,
            ...productServer,
            env: {
              ...productEnv(postgresPort, postgresPort + 1, `test-results/e2e-data-pg-${Date.now()}`),
              DATABASE_URL: databaseUrl,
            },
          },
        ]
      : []),
  ],
});
