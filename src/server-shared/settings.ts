import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Each process's settings are one zod object keyed by environment variable (src/bff/config.ts,
 * src/service/config.ts); every setting carries its group, shown default and a one-line meaning,
 * from which `npm run settings-table` writes the tables of README.md and e2e/README.md.
 */
export const settingGroups = {
  production: 'Production',
  service: 'Embedded service',
  tuning: 'Tuning',
  tests: 'Tests only',
} as const;
export type SettingGroup = keyof typeof settingGroups;

export interface SettingMeta {
  group: SettingGroup;
  /** The default as the table shows it. */
  default: string;
  /** One short line: longer explanations go below the table. */
  description: string;
}

export const settingsRegistry = z.registry<SettingMeta>();

/** What a setting builder needs besides its parsing: `default` only where it cannot be derived. */
export type About = Omit<SettingMeta, 'default'> & { default?: string };

/** A refused value: `expected …, got "…"`, to which the name of the setting is added. */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    readonly problem: string,
  ) {
    super(`Invalid setting ${setting}: ${problem}`);
  }
}

const got = (raw: string) => `got ${JSON.stringify(raw)}`;

/**
 * One environment variable: `read` gets its value (undefined when unset) and returns what the
 * process uses, or throws an Error whose message says what was expected.
 */
export function setting<T>(meta: SettingMeta, read: (raw: string | undefined) => T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return read(raw);
      } catch (error) {
        const problem =
          error instanceof SettingError
            ? error.problem
            : error instanceof Error
              ? error.message
              : String(error);
        ctx.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
    })
    .register(settingsRegistry, meta);
}

const blank = (raw: string | undefined): raw is undefined | '' => raw === undefined || raw === '';

/** A plain decimal: digits, an optional fraction. No sign, exponent, hex, blanks or words. */
const decimal = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * `Number()` reads " " as 0 (for RETENTION_DAYS: keep forever) and "0x10" as 16, so a typo would
 * quietly mean something else: a number setting is a plain decimal, anything else is refused.
 * Unset or empty takes the default.
 */
export function readNumber(raw: string, expected: string, whole: boolean, max = Infinity): number {
  const value = Number(raw);
  if (!decimal.test(raw) || (whole && !Number.isInteger(value)) || value > max)
    throw new Error(`expected ${expected}, ${got(raw)}`);
  return value;
}

/** A number ≥ 0, fractions allowed (seconds, days). */
export const decimalSetting = (fallback: number, about: About) =>
  setting({ default: String(fallback), ...about }, (raw) =>
    blank(raw) ? fallback : readNumber(raw, 'a decimal number ≥ 0', false),
  );

/** A whole number ≥ 0 (counts, milliseconds). */
export const wholeSetting = (fallback: number, about: About) =>
  setting({ default: String(fallback), ...about }, (raw) =>
    blank(raw) ? fallback : readNumber(raw, 'a whole number ≥ 0', true),
  );

/** A TCP port; 0 lets the system choose. */
export const portSetting = (fallback: number, about: About) =>
  setting({ default: String(fallback), ...about }, (raw) =>
    blank(raw) ? fallback : readNumber(raw, 'a port number (0 to 65535)', true, 65535),
  );

/** A comma-separated list of decimals ≥ 0 (blanks around the commas allowed). */
export const decimalListSetting = (fallback: string, about: About) =>
  setting({ default: `\`${fallback}\``, ...about }, (raw) => {
    const text = blank(raw) ? fallback : raw;
    const items = text.split(',').map((item) => item.trim());
    if (!items.every((item) => decimal.test(item)))
      throw new Error(`expected a comma-separated list of decimal numbers ≥ 0, ${got(text)}`);
    return items.map(Number);
  });

/** `on`/`off` (or `true`/`false`, `1`/`0`); unset or empty takes the default. */
export const switchSetting = (fallback: boolean, about: About) =>
  setting({ default: fallback ? 'on' : 'off', ...about }, (raw) => {
    if (blank(raw)) return fallback;
    if (['on', 'true', '1'].includes(raw)) return true;
    if (['off', 'false', '0'].includes(raw)) return false;
    throw new Error(`expected on or off, ${got(raw)}`);
  });

/** Text; unset or empty takes the default. `valid` (with what it expects) refuses the rest. */
export function textSetting(
  fallback: string,
  about: About,
  valid?: { test: (value: string) => boolean; expected: string },
) {
  return setting({ default: `\`${fallback}\``, ...about }, (raw) => {
    if (blank(raw)) return fallback;
    if (valid && !valid.test(raw)) throw new Error(`expected ${valid.expected}, ${got(raw)}`);
    return raw;
  });
}

/** Text with no default: null when unset or empty. */
export function optionalSetting(
  about: About & { default: string },
  valid?: { test: (value: string) => boolean; expected: string },
) {
  return setting(about, (raw) => {
    if (blank(raw)) return null;
    if (valid && !valid.test(raw)) throw new Error(`expected ${valid.expected}, ${got(raw)}`);
    return raw;
  });
}

/** An http(s) URL (or the word `also`); null when unset or empty. */
export const urlSetting = (about: About & { default: string }, also?: string) =>
  setting(about, (raw) => {
    if (blank(raw)) return null;
    if (also !== undefined && raw === also) return raw;
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // refused below
    }
    if (!url || !/^https?:$/.test(url.protocol))
      throw new Error(`expected an http(s) URL${also ? ` or ${also}` : ''}, ${got(raw)}`);
    return raw;
  });

/**
 * A comma-separated list, entries trimmed and empty ones dropped: unset takes the default, set
 * but empty is the empty list. `valid` refuses an entry.
 */
export function listSetting(
  fallback: string,
  about: About,
  valid?: { test: (entry: string) => boolean; expected: string },
) {
  return setting({ default: fallback ? `\`${fallback}\`` : 'none', ...about }, (raw) => {
    const entries = (raw ?? fallback)
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const wrong = valid ? entries.find((entry) => !valid.test(entry)) : undefined;
    if (valid && wrong !== undefined) throw new Error(`expected ${valid.expected}, ${got(wrong)}`);
    return entries;
  });
}

/** An IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`; IPv4 also with a dotted mask). */
export function isAddressOrRange(entry: string) {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return (
    bits === undefined ||
    (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32)) ||
    (family === 4 && isIP(bits) === 4)
  );
}

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address or range as Fastify's `trustProxy` takes it, or one of its names for ranges. */
export const isProxyAddress = (entry: string) => proxyNames.has(entry) || isAddressOrRange(entry);

/** Fastify's (pino's) log levels. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads a process's settings from the environment: the first refused value throws a SettingError
 * naming it (rules across settings are in the schema too, on the setting they refuse).
 */
export function parseSettings<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>) {
  const result = schema.safeParse(env);
  if (result.success) return result.data as z.output<S>;
  const issue = result.error.issues[0];
  throw new SettingError(String(issue.path[0] ?? 'settings'), issue.message);
}

/** An environment variable's name as a config key: `UPLOAD_WAIT_SECONDS` → `uploadWaitSeconds`. */
export type ConfigKey<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<ConfigKey<Tail>>}`
  : Lowercase<S>;

/** Settings under their config keys, except those named in `except` (which a config derives itself). */
export type ConfigOf<T, Except extends keyof T = never> = {
  [K in Exclude<keyof T, Except> & string as ConfigKey<K>]: T[K];
};

const configKey = (name: string) =>
  name.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The part of a process's config that is each setting as read, under its config key: a setting is
 * written once (its key in the schema); only what a config derives or renames is written again,
 * and named in `except` so that it does not appear twice.
 */
export function configOf<T extends Record<string, unknown>, Except extends keyof T & string = never>(
  values: T,
  except: readonly Except[] = [],
): ConfigOf<T, Except> {
  const skipped = new Set<string>(except);
  return Object.fromEntries(
    Object.entries(values)
      .filter(([name]) => !skipped.has(name))
      .map(([name, value]) => [configKey(name), value]),
  ) as ConfigOf<T, Except>;
}

/** The settings of a schema, in its order, with their table entries. */
export function settingsOf(schema: z.ZodObject) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const meta = settingsRegistry.get(field as z.ZodType);
    if (!meta) throw new Error(`${name} has no group, default and meaning (settings.ts: setting())`);
    return { name, ...meta };
  });
}

/** Runs a process's loadConfig: a setting it refuses is one line on stderr and exit code 1, no stack trace. */
export function loadSettingsOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    console.error(
      error instanceof SettingError
        ? error.message
        : `configuration: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}
