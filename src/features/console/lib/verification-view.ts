import { isRecord } from './format';

export interface StepError {
  type: string;
  code: string;
  message: string;
}

export interface StepView {
  id: string;
  status: number | null;
  data: Record<string, unknown> | null;
  error: StepError | null;
}

export interface FieldView {
  key: string;
  label: string | null;
  value: string | number | null;
  format: string | null;
}

export interface DocumentView {
  type: string;
  country: string | null;
  region: string | null;
  photos: string[];
  steps: StepView[];
  fields: FieldView[] | null;
}

export interface BankView {
  accounts: Record<string, unknown>[];
  transactions: Record<string, unknown>[];
  currentBalance: number | null;
  availableBalance: number | null;
  holder: Record<string, unknown> | null;
}

export interface VerificationView {
  id: string | null;
  status: string | null;
  flow: { id: string | null; name: string | null } | null;
  metadata: Record<string, unknown> | null;
  expired: boolean | null;
  steps: StepView[];
  documents: DocumentView[];
  /** undefined: the section is absent; null: present without a value ("unknown"). */
  age: number | null | undefined;
  documentExpiry: { type: string; expired: boolean | null }[] | null;
  bank: BankView | null;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];

function toStepError(value: unknown): StepError | null {
  if (!isRecord(value)) return null;
  return {
    type: str(value.type) ?? '',
    code: str(value.code) ?? '',
    message: str(value.message) ?? '',
  };
}

function toSteps(value: unknown): StepView[] {
  return records(value).map((step) => ({
    id: str(step.id) ?? '',
    status: num(step.status),
    data: isRecord(step.data) ? step.data : null,
    error: toStepError(step.error),
  }));
}

function toFields(value: unknown): FieldView[] | null {
  if (!isRecord(value)) return null;
  return Object.entries(value).map(([key, field]) => {
    const record = isRecord(field) ? field : { value: field };
    const raw = record.value;
    return {
      key,
      label: str(record.label),
      value: typeof raw === 'string' || typeof raw === 'number' ? raw : null,
      format: str(record.format),
    };
  });
}

function toBank(value: unknown): BankView | null {
  if (!isRecord(value)) return null;
  return {
    accounts: records(value.accounts),
    transactions: records(value.transactions),
    currentBalance: num(value.current_balance),
    availableBalance: num(value.available_balance),
    holder: isRecord(value.identity) ? value.identity : null,
  };
}

/**
 * The verification data as the console shows it. The hosted service may omit or add any section,
 * so every part is read on its own and a malformed part is left out rather than failing the page.
 */
export function toVerificationView(raw: unknown): VerificationView | null {
  if (!isRecord(raw)) return null;
  const identity = isRecord(raw.identity) ? raw.identity : null;
  const flow = isRecord(raw.flow) ? raw.flow : null;
  const computed = isRecord(raw.computed) ? raw.computed : null;
  const age = computed && isRecord(computed.age) ? num(computed.age.data) : undefined;
  const expiry =
    computed && isRecord(computed.isDocumentExpired) ? computed.isDocumentExpired.data : undefined;
  const financial = isRecord(raw.financialInformation) ? raw.financialInformation : null;
  return {
    id: str(raw.id),
    status: identity ? str(identity.status) : null,
    flow: flow ? { id: str(flow.id), name: str(flow.name) } : null,
    metadata: isRecord(raw.metadata) ? raw.metadata : null,
    expired: typeof raw.expired === 'boolean' ? raw.expired : null,
    steps: toSteps(raw.steps),
    documents: records(raw.documents).map((doc) => ({
      type: str(doc.type) ?? '',
      country: str(doc.country),
      region: str(doc.region) || null,
      photos: Array.isArray(doc.photos) ? doc.photos.filter((p): p is string => typeof p === 'string') : [],
      steps: toSteps(doc.steps),
      fields: toFields(doc.fields),
    })),
    age,
    documentExpiry: isRecord(expiry)
      ? Object.entries(expiry).map(([type, expired]) => ({
          type,
          expired: typeof expired === 'boolean' ? expired : null,
        }))
      : null,
    bank: financial ? toBank(financial.bankStatement) : null,
  };
}
