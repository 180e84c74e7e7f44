import { open } from 'node:fs/promises';
import { z } from 'zod';
import { errorCodes, PERSON_MARKER, SCENARIO_MARKER, type ErrorCode } from '@/shared/error-codes';
import type { Person } from './types';

/** Bytes read from each end of a file when looking for markers (never the whole file). */
export const MARKER_WINDOW_BYTES = 256 * 1024;
const MAX_PERSON_CHARS = 8192;

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const personSchema = z.object({
  fullName: z.string().min(1).max(200),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  dateOfBirth: date.optional(),
  documentNumber: z.string().max(50).optional(),
  expiryDate: date.optional(),
  issueDate: date.optional(),
  nationality: z.string().max(50).optional(),
  sex: z.string().max(10).optional(),
  address: z.string().max(300).optional(),
  curp: z.string().max(30).optional(),
  rfc: z.string().max(30).optional(),
  cuit: z.string().max(30).optional(),
  cpf: z.string().max(30).optional(),
  extra: z.record(z.string().max(50), z.string().max(300)).optional(),
}) satisfies z.ZodType<Person>;

export interface Markers {
  scenario?: ErrorCode;
  person?: Person;
}

/** The first and the last MARKER_WINDOW_BYTES of a file (one window when the file is small). */
export async function readEnds(path: string, windowBytes = MARKER_WINDOW_BYTES): Promise<Buffer[]> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    };
    if (size <= 2 * windowBytes) return [await read(0, size)];
    return [await read(0, windowBytes), await read(size - windowBytes, windowBytes)];
  } finally {
    await handle.close();
  }
}

// Longest first, so 'selfiePhoto.noFace' never shadows a longer code that starts the same way.
const codesLongestFirst = [...errorCodes].sort((a, b) => b.length - a.length);

/**
 * Markers in text. After `idv-scenario=` (or a PNG keyword `idv-scenario` and its NUL) comes a known
 * code; whatever follows it (a checksum, a quote) is ignored. After `idv-person=` comes base64url
 * JSON; it ends at the first character outside the base64url alphabet.
 */
export function parseMarkers(texts: string[]): Markers {
  const markers: Markers = {};
  const scenarioKey = SCENARIO_MARKER.slice(0, -1);
  const personKey = PERSON_MARKER.slice(0, -1);
  for (const text of texts) {
    if (!markers.scenario) {
      const re = new RegExp(`${scenarioKey}[=\\x00]`, 'g');
      for (let m = re.exec(text); m && !markers.scenario; m = re.exec(text)) {
        const rest = text.slice(re.lastIndex, re.lastIndex + 64);
        markers.scenario = codesLongestFirst.find((code) => rest.startsWith(code));
      }
    }
    if (!markers.person) {
      const re = new RegExp(`${personKey}[=\\x00]([A-Za-z0-9_-]{2,${MAX_PERSON_CHARS}})`, 'g');
      for (let m = re.exec(text); m && !markers.person; m = re.exec(text)) {
        // A PNG chunk's CRC may follow the text and happen to be base64url characters.
        for (let cut = 0; cut <= 4 && !markers.person; cut++) {
          markers.person = decodePerson(m[1].slice(0, m[1].length - cut));
        }
      }
    }
  }
  return markers;
}

export function decodePerson(encoded: string): Person | undefined {
  try {
    const json: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    const parsed = personSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const encodePerson = (person: Person) =>
  Buffer.from(JSON.stringify(person), 'utf8').toString('base64url');

/** Markers found in the two ends of a file's raw bytes (JPEG COM, PNG tEXt, video tags, plain PDF). */
export async function scanFileMarkers(path: string): Promise<Markers> {
  const windows = await readEnds(path);
  return parseMarkers(windows.map((w) => w.toString('latin1')));
}

/** Keeps the first found of each marker. */
export const mergeMarkers = (...all: Markers[]): Markers => ({
  scenario: all.find((m) => m.scenario)?.scenario,
  person: all.find((m) => m.person)?.person,
});
