import type { I18n, Messages } from '@lingui/core';
import { useSyncExternalStore } from 'react';
import englishInline from 'virtual:i18n-catalog/en-inline';
import type { Language } from '#shared/contracts/enums';
import type englishCatalog from './catalogs/en.json';

/** Every message's key; catalogs/en.json is the list (a unit test holds hi.json to the same keys). */
export type MessageKey = keyof typeof englishCatalog;
export type MessageValues = Record<string, string | number>;
export type { Language };

const STORAGE_KEY = 'rupeedesk.language';
const LANGUAGES: readonly Language[] = ['en', 'hi'];

/** The device's remembered choice; English until one is made. */
export function storedLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.includes(stored as Language) ? (stored as Language) : 'en';
  } catch {
    return 'en';
  }
}

/** A cookie too: the server sends the landing and login pages drawn in English only to devices that chose no other language (decision 065). */
function languageCookie(language: Language): void {
  document.cookie = `${STORAGE_KEY}=${language};path=/;max-age=31536000;samesite=lax`;
}

function rememberLanguage(language: Language): void {
  languageCookie(language);
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // A browser that refuses storage (private mode) keeps the choice for this visit only.
  }
}

/*
 * Lingui (docs/decisions/046) loads with the first catalog beyond the inlined English one. Until then, the
 * landing page's English messages, compiled at build time to text and plain {placeholders} only (the build
 * refuses anything else in that part), are read straight from Lingui's compiled form.
 */
let lingui: I18n | undefined;
let activeLanguage: Language = 'en';
let wanted: Language = storedLanguage();
// A choice made before the cookie existed.
if (wanted !== 'en') languageCookie(wanted);
const listeners = new Set<() => void>();

function readInline(key: string, values: MessageValues = {}): string {
  const message = (englishInline as Record<string, string | (string | [string])[]>)[key];
  if (message === undefined) return key;
  return typeof message === 'string' ? message : message.map((token) => (typeof token === 'string' ? token : String(values[token[0]] ?? ''))).join('');
}

let linguiLoad: Promise<I18n> | undefined;
function loadLingui(): Promise<I18n> {
  linguiLoad ??= import('@lingui/core').then(({ i18n }) => {
    i18n.load('en', englishInline as Messages);
    i18n.activate(activeLanguage);
    return (lingui = i18n);
  });
  return linguiLoad;
}

// Each part loads once; a failed load is forgotten so that the next page asks again (say, once back online).
const partLoads = new Map<Language, Promise<void>>();
/** Loads what the language needs beyond the inlined English: the rest of English, or the whole of Hindi. */
function loadCatalog(language: Language): Promise<void> {
  let loading = partLoads.get(language);
  if (!loading) {
    const part = language === 'en' ? import('virtual:i18n-catalog/en-rest') : import('virtual:i18n-catalog/hi');
    loading = Promise.all([loadLingui(), part]).then(
      ([i18n, module]) => i18n.load(language, module.default),
      (error: unknown) => {
        partLoads.delete(language);
        if (!lingui) linguiLoad = undefined;
        throw error;
      },
    );
    partLoads.set(language, loading);
  }
  return loading;
}

function activate(language: Language): void {
  if (activeLanguage === language) return;
  activeLanguage = language;
  lingui?.activate(language);
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

/**
 * Resolves once the chosen language can show a page: the landing page in English needs nothing
 * more (its messages are inline); any other page, or Hindi, waits for its catalog.
 */
export function languageReady(needs: 'landing' | 'page'): Promise<void> {
  const language = wanted;
  if (language === 'en' && needs === 'landing') return Promise.resolve();
  return loadCatalog(language).then(() => {
    if (wanted === language) activate(language);
  });
}

/** Switches the screens to the language once its catalog is in, and remembers it on this device. */
export async function chooseLanguage(language: Language): Promise<void> {
  wanted = language;
  rememberLanguage(language);
  await loadCatalog(language);
  if (wanted === language) activate(language);
}

/** The language the screens are in. */
export function currentLanguage(): Language {
  return activeLanguage;
}

/** The message for a key in the current language, for code outside rendering (toasts, titles). */
export function translate(key: MessageKey, values?: MessageValues): string {
  return lingui ? lingui._(key, values) : readInline(key, values);
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/** `t(key, values)` for a component, which renders again when the language changes. */
export function useTranslation(): { t: (key: MessageKey, values?: MessageValues) => string; language: Language } {
  // A change of language renders the component again, and `t` then reads the new one.
  return { t: translate, language: useSyncExternalStore(subscribe, currentLanguage, currentLanguage) };
}
