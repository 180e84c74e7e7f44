import { customFieldValuesSchema, fromCustomFields } from '@/shared/custom-fields';
import type { InputDescriptor } from '@/shared/contract/send-input';
import { docBase, sidesOf, slotKeyOf, type FlowPlan, type Slot } from '@/shared/flow-plan';
import { integrationError } from './service-error';

/**
 * Places a descriptor in the flow or refuses the request (IntegrationError): a group that names
 * no document of its kind, a type, country, region, page or institution the flow does not allow,
 * invalid custom-field values.
 */
export function slotOf(plan: FlowPlan, descriptor: InputDescriptor, index: number): Slot {
  const at = `inputs[${index}]`;
  switch (descriptor.inputType) {
    case 'document-photo': {
      const planned = plan.documents[descriptor.group];
      if (!planned || planned.kind !== 'document') {
        throw integrationError(
          `${at}: group ${descriptor.group} is not a document-verification document of this flow`,
        );
      }
      const { type, country, region, page } = descriptor.data;
      if (!planned.step.types.includes(type))
        throw integrationError(`${at}: document type ${type} is not allowed here`);
      if (!planned.step.countries.includes(country))
        throw integrationError(`${at}: country ${country} is not allowed here`);
      const regions = planned.step.regions[country] ?? [];
      if (regions.length > 0 && !regions.includes(region ?? '')) {
        throw integrationError(`${at}: region must be one of ${regions.join(', ')}`);
      }
      if (regions.length === 0 && region) throw integrationError(`${at}: no region is used for ${country}`);
      if (page === 'back' && sidesOf(type, country) === 'one') {
        throw integrationError(`${at}: a ${type} of ${country} has one side`);
      }
      return {
        key: slotKeyOf(descriptor),
        position: docBase(plan, descriptor.group) + (page === 'back' ? 1 : 0),
        group: descriptor.group,
      };
    }
    case 'custom-document-photo': {
      const planned = plan.documents[descriptor.group];
      if (!planned || planned.kind !== 'custom') {
        throw integrationError(`${at}: group ${descriptor.group} is not a custom document of this flow`);
      }
      if (planned.doc.type !== descriptor.data.type) {
        throw integrationError(`${at}: group ${descriptor.group} is a ${planned.doc.type}`);
      }
      const back = descriptor.data.page === 'back';
      if (back && planned.doc.sides !== 'two')
        throw integrationError(`${at}: ${planned.doc.type} has one side`);
      return {
        key: slotKeyOf(descriptor),
        position: docBase(plan, descriptor.group) + (back ? 1 : 0),
        group: descriptor.group,
      };
    }
    case 'selfie-photo':
    case 'selfie-video':
      if (plan.biometric !== descriptor.inputType) {
        throw integrationError(`${at}: this flow's biometric input is ${plan.biometric ?? 'absent'}`);
      }
      return { key: slotKeyOf(descriptor), position: plan.biometricPosition };
    case 'custom-fields': {
      const merit = plan.customFields;
      if (!merit) throw integrationError(`${at}: this flow has no custom fields`);
      if (descriptor.data.country !== merit.country)
        throw integrationError(`${at}: custom fields are for ${merit.country}`);
      const known = new Set(merit.fields.map((f) => f.name));
      const unknown = descriptor.data.fields.find((f) => !known.has(f.name));
      if (unknown) throw integrationError(`${at}: unknown custom field ${unknown.name}`);
      const checked = customFieldValuesSchema(merit.fields).safeParse(
        fromCustomFields(descriptor.data.fields),
      );
      if (!checked.success) {
        const issue = checked.error.issues[0];
        throw integrationError(`${at}: custom field ${issue.path.join('.')}: ${issue.message}`);
      }
      return { key: slotKeyOf(descriptor), position: plan.customFieldsPosition };
    }
    case 'financial-information-bank-statement-parsing-request': {
      const merit = plan.bank;
      if (!merit) throw integrationError(`${at}: this flow has no bank account data`);
      if (!merit.countries.includes(descriptor.data.country)) {
        throw integrationError(`${at}: bank statements are for ${merit.countries.join(', ')}`);
      }
      if (!merit.institutions.some((i) => i.institutionId === descriptor.data.institutionId)) {
        throw integrationError(`${at}: unknown institutionId ${descriptor.data.institutionId}`);
      }
      return { key: slotKeyOf(descriptor), position: plan.bankPosition };
    }
  }
}
