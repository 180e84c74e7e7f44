import type {
  BankStatement,
  Step,
  VerificationData,
  VerificationDocument,
} from '@/shared/contract/verification';

export type StepView = Step;

export interface FieldView {
  key: string;
  label: string | null;
  value: string | number | boolean | null;
  format: string | null;
}

export interface DocumentView {
  type: string;
  country: string | null;
  region: string | null;
  photos: string[];
  steps: StepView[];
  fields: FieldView[];
}

export interface BankView {
  accounts: Record<string, unknown>[];
  transactions: Record<string, unknown>[];
  currentBalance: number | null;
  availableBalance: number | null;
  holder: Record<string, unknown> | null;
}

export interface VerificationView {
  id: string;
  status: VerificationData['identity']['status'];
  flow: VerificationData['flow'];
  metadata: Record<string, unknown> | null;
  expired: boolean | null;
  hasProblem: boolean | null;
  steps: StepView[];
  documents: DocumentView[];
  /** undefined: the section is absent; null: present without a value ("unknown"). */
  age: number | null | undefined;
  documentExpiry: { type: string; expired: boolean | null }[] | null;
  bank: BankView | null;
  customFields: { name: string; value: string }[];
}

const toDocument = (doc: VerificationDocument): DocumentView => ({
  type: doc.type,
  country: doc.country || null,
  region: doc.region || null,
  photos: doc.photos,
  steps: doc.steps,
  fields: Object.entries(doc.fields ?? {}).map(([key, field]) => ({
    key,
    label: field.label ?? null,
    value: field.value,
    format: field.format ?? null,
  })),
});

const toBank = (bank: BankStatement): BankView => ({
  accounts: bank.accounts,
  transactions: bank.transactions,
  currentBalance: bank.current_balance ?? null,
  availableBalance: bank.available_balance ?? null,
  holder: bank.identity ?? null,
});

/** The verification data (parsed with the shared schema) as the console's pages lay it out. */
export function toVerificationView(data: VerificationData | null | undefined): VerificationView | null {
  if (!data) return null;
  const expiry = data.computed?.isDocumentExpired?.data;
  const bank = data.financialInformation?.bankStatement;
  return {
    id: data.id,
    status: data.identity.status,
    flow: data.flow,
    metadata: data.metadata ?? null,
    expired: data.expired ?? null,
    hasProblem: data.hasProblem ?? null,
    steps: data.steps,
    documents: data.documents.map(toDocument),
    age: data.computed?.age === undefined ? undefined : data.computed.age.data,
    documentExpiry: expiry ? Object.entries(expiry).map(([type, expired]) => ({ type, expired })) : null,
    bank: bank ? toBank(bank) : null,
    customFields: Object.entries(data.customFields ?? {}).map(([name, value]) => ({ name, value })),
  };
}
