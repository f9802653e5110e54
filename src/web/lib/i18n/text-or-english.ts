import { currentLanguage, translate, type MessageKey, type MessageValues } from './i18n.ts';

/**
 * For the few screens that can appear before any catalog beyond the inlined English has loaded
 * (a failed page, a server that cannot be reached, on a first visit): the English text as written
 * here while the screens are in English, and the key's text in another language, whose catalog
 * is always in before the screens switch to it. The English catalog holds the same text.
 */
export function textOrEnglish(key: MessageKey, english: string, values?: MessageValues): string {
  return currentLanguage() === 'en' ? english : translate(key, values);
}
