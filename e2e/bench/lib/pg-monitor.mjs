// Preloaded (--import) into a service the bench starts on PostgreSQL: every query its `pg` clients
// send (the store's, the locks', the job queue's) is counted, and the time from sending it to its
// answer summed (queries under way at once each count in full). Written to PG_MONITOR_FILE on
// SIGUSR2 (then reset), so the bench can print queries and database time per send-input.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const pg = createRequire(path.join(process.cwd(), 'package.json'))('pg');
let queries = 0;
let ms = 0;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function query(...args) {
  queries++;
  const started = performance.now();
  const done = () => (ms += performance.now() - started);
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last];
    args[last] = (...results) => {
      done();
      return callback(...results);
    };
    return original.apply(this, args);
  }
  const result = original.apply(this, args);
  if (result && typeof result.then === 'function') result.then(done, done);
  else if (result && typeof result.once === 'function') {
    result.once('end', done);
    result.once('error', done);
  }
  return result;
};
process.on('SIGUSR2', () => {
  writeFileSync(process.env.PG_MONITOR_FILE, JSON.stringify({ queries, ms }));
  queries = 0;
  ms = 0;
});
