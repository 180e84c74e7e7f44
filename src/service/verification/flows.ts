import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlowFiles, type Flow } from '@/shared/flow';

export const flowsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'flows');

/** The demo flows (the service's "dashboard"), validated once at start; a bad file stops the start. */
export function loadFlows(dir = flowsDir): Map<string, Flow> {
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  return parseFlowFiles(names.map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') })));
}
