/** A plain decimal: digits, an optional fraction. No sign, exponent, hex, blanks or words. */
const decimal = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * A non-negative number setting, parsed strictly: `Number()` reads " " as 0 (for RETENTION_DAYS:
 * keep forever) and "0x10" as 16, so a typo would quietly mean something else. Unset or empty
 * takes the default; anything else not a plain decimal stops the start with a line naming the
 * setting.
 */
export function numberSetting(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!decimal.test(value)) {
    throw new Error(`${name} must be a non-negative decimal number, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** A comma-separated list of such numbers (blanks around the commas allowed). */
export function numberListSetting(name: string, value: string): number[] {
  return value.split(',').map((item) => numberSetting(name, item.trim() || ' ', 0));
}

/** Runs a process's loadConfig: a setting it refuses is one line on stderr and exit code 1, no stack trace. */
export function loadSettingsOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    console.error(`configuration: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
