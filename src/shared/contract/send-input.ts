import { z } from 'zod';
import { countryCode, documentType } from '../flow';
import { errorCodes } from '../error-codes';
import { livenessChallengeSchema } from './liveness-challenge';

/** A file name as the browser sends it: no path characters, no control characters. */
export const uploadFilename = z
  .string()
  .min(1)
  .max(200)
  .refine(
    (name) =>
      !/[/\\]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 32) && name !== '.' && name !== '..',
    'a plain file name',
  );

const group = z.number().int().min(0);

export const documentPhotoDescriptor = z.object({
  inputType: z.literal('document-photo'),
  group,
  data: z.object({
    type: documentType,
    country: countryCode,
    region: z.string().optional(),
    page: z.enum(['front', 'back']),
    filename: uploadFilename,
  }),
});

export const selfiePhotoDescriptor = z.object({
  inputType: z.literal('selfie-photo'),
  // Lenient (wire contract §4): older clients omit data.type.
  data: z.object({ type: z.literal('selfie-photo').optional(), filename: uploadFilename }),
});

export const selfieVideoDescriptor = z.object({
  inputType: z.literal('selfie-video'),
  data: z.object({ filename: uploadFilename }),
});

export const customDocumentPhotoDescriptor = z.object({
  inputType: z.literal('custom-document-photo'),
  group,
  data: z.object({
    type: z.string().regex(/^custom-[a-z0-9-]+$/),
    page: z.enum(['front', 'back', 'multi']),
    filename: uploadFilename,
  }),
});

export const customFieldSchema = z.object({
  name: z.string().min(1),
  type: z.literal('atomic'),
  atomicFieldParams: z.object({
    type: z.enum(['text', 'date', 'select', 'checkbox']),
    value: z.string().max(1000),
    mapping: z.object({ country: countryCode, key: z.string().min(1) }).optional(),
  }),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldsDescriptor = z.object({
  inputType: z.literal('custom-fields'),
  data: z.object({ fields: z.array(customFieldSchema).min(1).max(100), country: countryCode }),
});

export const bankStatementDescriptor = z.object({
  inputType: z.literal('financial-information-bank-statement-parsing-request'),
  data: z.object({
    type: z.literal('bank-document'),
    country: countryCode,
    institutionId: z.string().min(1),
    password: z.string().max(200).optional(),
    filename: uploadFilename,
  }),
});

/** A group on a descriptor that carries none is ignored (wire contract §4): zod strips unknown keys. */
export const inputDescriptorSchema = z.discriminatedUnion('inputType', [
  documentPhotoDescriptor,
  selfiePhotoDescriptor,
  selfieVideoDescriptor,
  customDocumentPhotoDescriptor,
  customFieldsDescriptor,
  bankStatementDescriptor,
]);
export type InputDescriptor = z.infer<typeof inputDescriptorSchema>;
export type InputType = InputDescriptor['inputType'];

export const inputsFieldSchema = z.array(inputDescriptorSchema).min(1).max(32);

/** The multipart file field each input type's file travels in (service spec 2.2). */
export const fileFieldOf = {
  'document-photo': 'document',
  'selfie-photo': 'selfie',
  'selfie-video': 'video',
  'custom-document-photo': 'custom-document',
  'financial-information-bank-statement-parsing-request': 'bank-document',
  'custom-fields': null,
} as const satisfies Record<InputType, string | null>;

export const inputErrorSchema = z.object({
  type: z.enum(['ValidationError', 'SystemError']),
  code: z.enum(errorCodes),
  message: z.string(),
});

/** One entry of send-input's 201 answer, in descriptor order (wire contract §4). */
/** (ext) A liveness video's answer carries the challenge of the next attempt when one was chosen. */
const nextChallenge = { livenessChallenge: livenessChallengeSchema.optional() };
export const inputResultSchema = z.union([
  z.object({ result: z.literal(true), data: z.unknown(), ...nextChallenge }),
  z.object({ result: z.literal(false), data: z.unknown(), error: inputErrorSchema, ...nextChallenge }),
]);
export type InputResult = z.infer<typeof inputResultSchema>;
export const sendInputResponseSchema = z.array(inputResultSchema);

/** Request-level error body of the service (wire contract §4) and the BFF's envelope. */
export const requestErrorSchema = z.object({
  code: z.union([z.string(), z.number()]),
  type: z.enum(['IntegrationError', 'ValidationError', 'SystemError', 'AuthError']).optional(),
  name: z.string().optional(),
  message: z.string(),
});
export type RequestError = z.infer<typeof requestErrorSchema>;
