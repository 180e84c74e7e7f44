// Passport data pages: the MRZ drawn from the person, and what the service reads back from it.
import type { ErrorCode } from '@/shared/error-codes';
import type { Person } from '@/checks/inputs/node/types';
import { passportMrz } from '../../e2e/fixtures/mrz-lines';
import { writeDocument } from './document-writer';
import { cardSvg, dmy } from './drawing';

/** What the MRZ of passportMrz/idCardMrz states of a person: the facts the service reads from it. */
export const mrzPerson = (p: Person): Person => ({
  fullName: `${p.firstName} ${p.lastName}`,
  firstName: p.firstName,
  lastName: p.lastName,
  documentNumber: p.documentNumber,
  nationality: p.nationality,
  dateOfBirth: p.dateOfBirth,
  expiryDate: p.expiryDate,
  sex: p.sex,
});

export const passport = (
  file: string,
  country: string,
  person: Person,
  colours: [string, string],
  accent: string,
  title: string,
  note: string,
  options: {
    mrz?: (lines: string[]) => string[];
    claimedCountry?: string;
    markPerson?: boolean;
    expected?: ErrorCode;
  } = {},
) =>
  writeDocument(
    {
      file,
      docType: 'passport',
      country: options.claimedCountry ?? country.slice(0, 2),
      page: 'front',
      person,
      requires: ['mrz'],
      note,
      ...(options.markPerson === false
        ? {
            markPerson: false,
            readPerson: options.expected === 'documentPhoto.badMrz' ? undefined : mrzPerson(person),
          }
        : {}),
      svg: cardSvg({
        colours,
        accent,
        title,
        subtitle: 'PASSPORT · PASAPORTE · SPECIMEN',
        fields: [
          ['Surname', person.lastName ?? ''],
          ['Given names', person.firstName ?? ''],
          ['Date of birth', dmy(person.dateOfBirth)],
          ['Passport No.', person.documentNumber ?? ''],
        ],
        mrz: (options.mrz ?? ((lines: string[]) => lines))(
          passportMrz(country === 'AR' ? 'ARG' : (person.nationality ?? ''), person),
        ),
      }),
    },
    options.expected ?? null,
    undefined,
    false,
  );
