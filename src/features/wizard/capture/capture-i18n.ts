import { addTranslations } from '@/lib/i18n';
import en from '../locales/capture.en.json';
import es from '../locales/capture.es.json';
import pt from '../locales/capture.pt.json';

export const CAPTURE_NS = 'wizard-capture';
// The capture strings load with the capture components, not with the first screen.
addTranslations(CAPTURE_NS, { en, es, pt });
