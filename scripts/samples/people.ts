// The people the samples show: fictional (their names say SPECIMEN), their CURP, RFC, CUIT and CPF
// with valid check digits, so the service's format checks pass on them.
import type { Person } from '@/checks/inputs/node/types';

const curpCheck = (first17: string) => {
  const alphabet = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += alphabet.indexOf(first17[i]) * (18 - i);
  return String((10 - (sum % 10)) % 10);
};
const rfcCheck = (first12: string) => {
  const alphabet = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += alphabet.indexOf(first12[i]) * (13 - i);
  const r = 11 - (sum % 11);
  return r === 11 ? '0' : r === 10 ? 'A' : String(r);
};
const cuitOf = (prefix: string, dni: string) => {
  const digits = `${prefix}${dni.padStart(8, '0')}`;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((s, w, i) => s + w * Number(digits[i]), 0);
  const check = 11 - (sum % 11);
  return `${prefix}-${dni.padStart(8, '0')}-${check === 11 ? 0 : check}`;
};
const cpfOf = (nine: string) => {
  const digit = (base: string) => {
    const sum = [...base].reduce((s, d, i) => s + Number(d) * (base.length + 1 - i), 0);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(nine);
  const d2 = digit(nine + d1);
  const all = `${nine}${d1}${d2}`;
  return `${all.slice(0, 3)}.${all.slice(3, 6)}.${all.slice(6, 9)}-${all.slice(9)}`;
};

const curp17 = 'MUEM900215MDFSJR0';
const rfc12 = 'MUEM900215K7';
export const people = {
  ar: {
    fullName: 'JUAN CARLOS SPECIMEN',
    firstName: 'JUAN CARLOS',
    lastName: 'SPECIMEN',
    dateOfBirth: '1985-04-12',
    documentNumber: '30123456',
    issueDate: '2019-06-15',
    expiryDate: '2034-06-15',
    nationality: 'ARG',
    sex: 'M',
    address: 'AV. EJEMPLO 1234, CABA',
    cuit: cuitOf('20', '30123456'),
  },
  mx: {
    fullName: 'MARIA GUADALUPE MUESTRA EJEMPLO',
    firstName: 'MARIA GUADALUPE',
    lastName: 'MUESTRA EJEMPLO',
    dateOfBirth: '1990-02-15',
    documentNumber: 'MSEJMR90021509M100',
    issueDate: '2021-05-10',
    expiryDate: '2031-12-31',
    nationality: 'MEX',
    sex: 'F',
    address: 'CALLE MUESTRA 45, COL. CENTRO, CDMX',
    curp: curp17 + curpCheck(curp17),
    rfc: rfc12 + rfcCheck(rfc12),
  },
  br: {
    fullName: 'ANA PAULA SPECIMEN SOUZA',
    firstName: 'ANA PAULA',
    lastName: 'SPECIMEN SOUZA',
    dateOfBirth: '1992-07-08',
    documentNumber: '12.345.678-9',
    issueDate: '2015-03-20',
    nationality: 'BRA',
    sex: 'F',
    cpf: cpfOf('529982247'),
  },
  brCnh: {
    fullName: 'ANA PAULA SPECIMEN SOUZA',
    firstName: 'ANA PAULA',
    lastName: 'SPECIMEN SOUZA',
    dateOfBirth: '1992-07-08',
    documentNumber: '01234567890',
    issueDate: '2022-01-10',
    expiryDate: '2032-01-09',
    nationality: 'BRA',
    sex: 'F',
    cpf: cpfOf('529982247'),
  },
  gb: {
    fullName: 'ALEX SPECIMEN',
    firstName: 'ALEX',
    lastName: 'SPECIMEN',
    dateOfBirth: '1988-11-30',
    documentNumber: '123456789',
    issueDate: '2022-09-01',
    expiryDate: '2032-09-01',
    nationality: 'GBR',
    sex: 'X',
  },
  us: {
    fullName: 'JORDAN SAMPLE SPECIMEN',
    firstName: 'JORDAN SAMPLE',
    lastName: 'SPECIMEN',
    dateOfBirth: '1979-01-05',
    documentNumber: '987654321',
    issueDate: '2011-03-01',
    expiryDate: '2021-03-01',
    nationality: 'USA',
    sex: 'M',
  },
  gbResidency: {
    fullName: 'ALEX SPECIMEN',
    firstName: 'ALEX',
    lastName: 'SPECIMEN',
    address: '1 SPECIMEN STREET, LONDON, SW1A 0AA',
    issueDate: '2026-09-15',
  },
} satisfies Record<string, Person>;
