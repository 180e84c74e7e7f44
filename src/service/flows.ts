import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flowSchema, type Flow } from '@/shared/flow';

const flowsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'flows');

/** The demo flows (the service's "dashboard"), validated once at start; a bad file stops the start. */
export function loadFlows(dir = flowsDir): Map<string, Flow> {
  const flows = new Map<string, Flow>();
  for (const name of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const parsed = flowSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
    if (!parsed.success) throw new Error(`flow ${name}: ${parsed.error.message}`);
    if (flows.has(parsed.data.id)) throw new Error(`flow ${name}: duplicate id ${parsed.data.id}`);
    flows.set(parsed.data.id, parsed.data);
  }
  return flows;
}
