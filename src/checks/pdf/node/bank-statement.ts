import type { BankStatement } from '@/shared/contract/verification';

/**
 * The one statement template the embedded service reads ("IDV statement v1", see README.md): a title
 * line containing ACCOUNT STATEMENT, labelled lines `Label: value`, and transaction lines
 * `YYYY-MM-DD description amount` with a dot for decimals and optional thousands commas.
 */
export const STATEMENT_TITLE = /\bACCOUNT STATEMENT\b/i;
const TRANSACTION = /^(\d{4}-\d{2}-\d{2})\s+(.+?)\s+(-?[\d,]*\d\.\d{2})$/;
const REQUIRED_LABELS = [
  'Institution',
  'Account holder',
  'Account number',
  'Currency',
  'Current balance',
] as const;

export type StatementParse = { ok: true; statement: BankStatement } | { ok: false; reason: string };

const amount = (text: string) => {
  const value = Number(text.replace(/,/g, ''));
  return Number.isFinite(value) ? value : null;
};

export function parseStatement(lines: string[]): StatementParse {
  if (!lines.some((line) => STATEMENT_TITLE.test(line))) return { ok: false, reason: 'no statement title' };
  const labels = new Map<string, string>();
  const transactions: BankStatement['transactions'] = [];
  for (const line of lines) {
    const tx = TRANSACTION.exec(line);
    if (tx) {
      const value = amount(tx[3]);
      if (value !== null) transactions.push({ date: tx[1], amount: value, description: tx[2] });
      continue;
    }
    const labelled = /^([A-Za-z][A-Za-z -]{1,40}?):\s*(.+)$/.exec(line);
    if (labelled) labels.set(labelled[1].trim().toLowerCase(), labelled[2].trim());
  }
  const missing = REQUIRED_LABELS.filter((label) => !labels.has(label.toLowerCase()));
  if (missing.length > 0) return { ok: false, reason: `the statement lacks ${missing.join(', ')}` };
  if (transactions.length === 0) return { ok: false, reason: 'the statement has no transactions' };
  const label = (name: string) => labels.get(name.toLowerCase()) ?? null;
  const currentBalance = amount(label('Current balance') ?? '');
  if (currentBalance === null) return { ok: false, reason: 'the current balance is not a number' };
  const available = label('Available balance');
  return {
    ok: true,
    statement: {
      accounts: [
        {
          institution: label('Institution'),
          type: label('Account type') ?? 'checking',
          number: label('Account number'),
          currency: label('Currency'),
        },
      ],
      transactions,
      current_balance: currentBalance,
      available_balance: available === null ? currentBalance : amount(available),
      identity: { name: label('Account holder'), email: label('Email'), phone: label('Phone') },
    },
  };
}
