import { buildServiceApp } from './http/app';
import { warmFaceReader } from './checks/face-reader';
import { warmMrzReader } from '@/checks/mrz/node/mrz';
import { warmPdfReader } from '@/checks/pdf/node/pdf-reader';
import { loadConfig } from './config';
import { loadSettingsOrExit } from '@/server-shared/settings';

// `npm run service`: the embedded verification service on HOST:SERVICE_PORT.
const config = loadSettingsOrExit(() => loadConfig());
const app = buildServiceApp(config, { logger: { level: config.logLevel } });

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'unclean stop');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

try {
  await app.listen({ host: config.host, port: config.port });
  // Here rather than in app.ts: a running service wants pdf.js ready for its first PDF; the many
  // apps that tests build do not, nor the services the BFF's tests start (LOAD_CHECKS_AT_START off:
  // a few seconds of CPU at each start).
  if (config.loadChecksAtStart) {
    warmPdfReader();
    // The face models and the OCR data load in a few seconds, off the event loop.
    warmFaceReader();
    void warmMrzReader().catch((error: unknown) => app.log.warn({ err: error }, 'MRZ reader not ready'));
  }
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  process.exit(1);
}
