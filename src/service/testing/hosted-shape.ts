import fs from 'node:fs';

/** A hand-written body in the hosted API's recorded shape (src/shared/contract/fixtures/hosted-*.json). */
export const hostedFixture = (name: string): Record<string, unknown> =>
  JSON.parse(
    fs.readFileSync(new URL(`../../shared/contract/fixtures/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * The key paths of `recorded` that `ours` lacks or holds with another JSON type, as
 * `path: recorded type → our type`. Arrays are compared item by item (up to the shorter one).
 */
export function shapeDifferences(recorded: unknown, ours: unknown, path = '$'): string[] {
  const [a, b] = [kindOf(recorded), kindOf(ours)];
  if (a !== b) return [`${path}: ${a} → ${b}`];
  if (a === 'array') {
    const [x, y] = [recorded as unknown[], ours as unknown[]];
    return x.slice(0, y.length).flatMap((item, i) => shapeDifferences(item, y[i], `${path}[${i}]`));
  }
  if (a !== 'object') return [];
  const [x, y] = [recorded as Record<string, unknown>, ours as Record<string, unknown>];
  return Object.keys(x).flatMap((key) =>
    key in y ? shapeDifferences(x[key], y[key], `${path}.${key}`) : [`${path}.${key}: missing`],
  );
}

type WithSteps = { steps: { id: string; data?: unknown }[] };

/** The data of a step by id (a verification's or a document's). */
export const stepData = (holder: WithSteps, id: string) =>
  holder.steps.find((s) => s.id === id)?.data as Record<string, unknown> | undefined;

/** The labels and flags of read fields, without their values (which differ by person). */
export const fieldDescriptions = (fields: Record<string, unknown> | undefined) =>
  Object.fromEntries(
    Object.entries(fields ?? {}).map(([key, field]) => {
      const { value: _value, ...rest } = field as Record<string, unknown>;
      return [key, rest];
    }),
  );
