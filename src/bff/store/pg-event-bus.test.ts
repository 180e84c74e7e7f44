// Two instances' buses on one PostgreSQL database (a schema of its own in TEST_DATABASE_URL).
import { afterAll, expect, it } from 'vitest';
import type { StaffStreamEvent } from '@/shared/contract/bff-api';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { eventually } from '../testing/harness';
import { PgEventBus } from './pg-event-bus';
import { SqlStore } from './sql-store';

const { url, schema } = freshSchemaUrl('idv_bus');
const other = freshSchemaUrl('idv_bus_other');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await dropSchema(schema);
  await dropSchema(other.schema);
});

// A silent logger: the bus logs only what goes wrong.
const log = { warn: () => undefined } as unknown as ConstructorParameters<typeof PgEventBus>[2];

async function instance(connectionString = url) {
  const store = await SqlStore.postgres(connectionString);
  const bus = new PgEventBus(store.postgres!.pool, store.postgres!.connectionString, log);
  const seen: StaffStreamEvent[] = [];
  await bus.start((event) => seen.push(event));
  closers.push(
    () => store.close(),
    () => bus.close(),
  );
  return { bus, seen };
}

const verification = (id: string): StaffStreamEvent => ({
  kind: 'verification',
  verification: {
    id,
    identity: null,
    flowId: 'f',
    flowName: null,
    status: 'pending',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    lastEvent: null,
  },
});

it('brings every event to every instance, in the order sent, big ones too', async () => {
  const [a, b] = [await instance(), await instance()];
  // Another deployment in another schema of the same database.
  const elsewhere = await instance(other.url);
  // A credit check whose bureau answer is far over NOTIFY's 8000 bytes travels by reference.
  const big: StaffStreamEvent = {
    kind: 'credit-check',
    creditCheck: {
      id: 'c1',
      country: 'br',
      request: { cpf: '52998224725' },
      status: 'completed',
      result: { lines: Array.from({ length: 400 }, (_, i) => ({ bank: `bank ${i}`, amount: i * 1000 })) },
      error: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      completedAt: '2026-01-01T00:00:01.000Z',
    },
  };
  expect(JSON.stringify(big).length).toBeGreaterThan(8000);
  const sent = [verification('v1'), big, verification('v2')];
  for (const event of sent) a.bus.publish(event);
  b.bus.publish(verification('v3'));
  await eventually(async () => (a.seen.length === 4 && b.seen.length === 4 ? true : undefined));
  expect(b.seen).toEqual(a.seen);
  // A's own events keep their order among themselves, wherever B's one fell.
  expect(a.seen.filter((e) => e.kind !== 'verification' || e.verification.id !== 'v3')).toEqual(sent);
  // The other schema heard none of it: its own event, sent after all of them, is the first it gets.
  elsewhere.bus.publish(verification('own'));
  await eventually(async () => (elsewhere.seen.length ? true : undefined));
  expect(elsewhere.seen).toEqual([verification('own')]);
});
