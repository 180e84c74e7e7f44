import { createHash } from 'node:crypto';
import { normalizeTaxId } from '@/shared/contract/credit-check';

const firstNames = [
  'Ana',
  'Lucía',
  'Martín',
  'Sofía',
  'Joaquín',
  'Camila',
  'Mateo',
  'Valentina',
  'Pedro',
  'Juliana',
];
const lastNames = [
  'Pérez',
  'González',
  'Rodríguez',
  'Silva',
  'Fernández',
  'Santos',
  'López',
  'Oliveira',
  'Díaz',
  'Costa',
];
const arLenders = ['Banco Demo Nación', 'Tarjeta Ejemplo SA', 'Financiera Ficticia', 'Cooperativa de Prueba'];
const brLenders = ['Banco Exemplo', 'Caixa Demo', 'Cartão Fictício SA', 'Financeira Teste'];

/** A reproducible stream of numbers from one identifier: the same request always gets the same data. */
function seeded(seed: string) {
  let block = createHash('sha256').update(seed).digest();
  let offset = 0;
  return (max: number) => {
    if (offset + 4 > block.length) {
      block = createHash('sha256').update(block).digest();
      offset = 0;
    }
    const n = block.readUInt32BE(offset);
    offset += 4;
    return n % max;
  };
}

/**
 * The embedded service's credit bureau: synthetic, deterministic per identifier, and labelled as
 * such, so that the credit-check flow can be demonstrated without a real bureau.
 */
export function syntheticBureauResult(
  country: 'ar' | 'br',
  request: { cuit?: string; dni?: string; fullName?: string; cpf?: string },
) {
  const id = normalizeTaxId(request.cuit ?? request.dni ?? request.cpf ?? '');
  const next = seeded(`${country}:${id}`);
  const name =
    request.fullName?.trim() || `${firstNames[next(firstNames.length)]} ${lastNames[next(lastNames.length)]}`;
  const score = 300 + next(601);
  const lenders = country === 'ar' ? arLenders : brLenders;
  const debtCount = score > 750 ? 0 : next(4);
  const currency = country === 'ar' ? 'ARS' : 'BRL';
  const debts = Array.from({ length: debtCount }, () => {
    const situation = 1 + next(5);
    const month = 1 + next(12);
    return {
      institution: lenders[next(lenders.length)],
      amount: (1 + next(500)) * (country === 'ar' ? 10000 : 100),
      currency,
      situation,
      period: `2026-${String(month).padStart(2, '0')}`,
    };
  });
  const worst = debts.reduce((max, d) => Math.max(max, d.situation), 1);
  const situation =
    country === 'ar'
      ? {
          code: worst,
          label: ['normal', 'with follow-up', 'with problems', 'high risk of insolvency', 'irrecoverable'][
            worst - 1
          ],
        }
      : {
          code: worst > 2 ? 'negative' : 'regular',
          label: worst > 2 ? 'restrictions found' : 'no restrictions',
        };
  return {
    synthetic: true,
    notice: 'Synthetic data from the embedded service; no credit bureau was consulted.',
    identifier: id,
    name,
    score,
    situation,
    debts,
    totalDebt: debts.reduce((sum, d) => sum + d.amount, 0),
    currency,
    checkedAt: new Date().toISOString(),
  };
}
