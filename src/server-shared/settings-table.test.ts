import { describe, expect, it } from 'vitest';
import { settingsDocs } from '../../scripts/make-settings-table';

// The settings tables are written from the schemas (`npm run settings-table`): a setting added,
// changed or removed in a schema and not in the README fails here.
describe('the settings tables of README.md and e2e/README.md', () => {
  it('are what the schemas generate', async () => {
    for (const { file, current, wanted } of await settingsDocs()) {
      expect(current, `${file}: run npm run settings-table`).toBe(wanted);
    }
  });
});
