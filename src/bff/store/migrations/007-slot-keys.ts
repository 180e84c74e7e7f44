import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * send-input's answers kept under the one slot vocabulary (`slotKeyOf`, src/shared/flow-plan.ts),
 * the service's: `document-photo:0:front` and `custom-document-photo:1:back` become `document:0:front`
 * and `document:1:back` (a custom document's `multi` is its front), `selfie-photo` and `selfie-video`
 * become `biometric`, the bank statement's request `bank-statement`. Where two old slots become one,
 * the later answer is kept (as a retake replaces the slot).
 */
const newKey = (slot: string) => `CASE
    WHEN ${slot} LIKE 'document-photo:%' THEN 'document:' || substr(${slot}, 16)
    WHEN ${slot} LIKE 'custom-document-photo:%' THEN 'document:' || replace(substr(${slot}, 23), ':multi', ':front')
    WHEN ${slot} IN ('selfie-photo', 'selfie-video') THEN 'biometric'
    WHEN ${slot} = 'financial-information-bank-statement-parsing-request' THEN 'bank-statement'
    ELSE ${slot}
  END`;

const rekey = `
  DELETE FROM input_results WHERE EXISTS (
    SELECT 1 FROM input_results later
    WHERE later.verification_id = input_results.verification_id
      AND later.slot <> input_results.slot
      AND ${newKey('later.slot')} = ${newKey('input_results.slot')}
      AND (later.at > input_results.at OR (later.at = input_results.at AND later.slot > input_results.slot))
  );
  UPDATE input_results SET slot = ${newKey('slot')};
`;

export const slotKeys: NumberedMigration = {
  version: 7,
  name: 'slot-keys',
  sqlite: rekey,
  postgres: rekey,
};
