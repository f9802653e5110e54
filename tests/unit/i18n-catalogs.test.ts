import fs from 'node:fs';
import path from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { isInlineEnglishKey } from '../../src/web/lib/i18n/catalog-parts.ts';
import { KNOWN_MESSAGE_PATTERNS, KNOWN_MESSAGES } from '../../src/web/lib/i18n/known-messages.ts';

/*
 * The web app's catalogs (docs/decisions/046): a Hindi screen must never fall back to a raw key or to English
 * without this failing. TypeScript already refuses a key that en.json lacks wherever `t` takes a literal.
 */
const catalogDirectory = path.resolve('src/web/lib/i18n/catalogs');
const read = (language: string) => JSON.parse(fs.readFileSync(path.join(catalogDirectory, `${language}.json`), 'utf8')) as Record<string, string>;
const english = read('en');
const hindi = read('hi');

/** Texts that read the same in Hindi: names and codes kept in Latin letters. */
const SAME_IN_BOTH = new Set<string>(['pin.label', 'kyc.panLabel', 'kyc.title', 'profile.panTitle', 'withdraw.pinSummaryInr']);

function placeholders(message: string): string[] {
  const names = new Set<string>();
  const visit = (tokens: unknown): void => {
    if (!Array.isArray(tokens)) return;
    for (const token of tokens) {
      if (Array.isArray(token) && typeof token[0] === 'string') {
        names.add(token[0]);
        const branches = token[2] as Record<string, unknown> | undefined;
        if (branches && typeof branches === 'object') for (const branch of Object.values(branches)) visit(branch);
      }
    }
  };
  visit(compileMessage(message));
  return [...names].sort();
}

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('translation catalogs', () => {
  it('hold the same keys in English and Hindi', () => {
    expect(
      Object.keys(hindi).filter((key) => !(key in english)),
      'keys only in hi.json',
    ).toEqual([]);
    expect(
      Object.keys(english).filter((key) => !(key in hindi)),
      'keys missing from hi.json',
    ).toEqual([]);
  });

  it('have a text for every key, and Hindi differs from English but for names', () => {
    for (const [language, catalog] of [
      ['en', english],
      ['hi', hindi],
    ] as const) {
      expect(
        Object.entries(catalog)
          .filter(([, text]) => text.trim() === '')
          .map(([key]) => `${language}: ${key}`),
      ).toEqual([]);
    }
    expect(
      Object.keys(english).filter((key) => hindi[key] === english[key] && !SAME_IN_BOTH.has(key)),
      'left in English in hi.json',
    ).toEqual([]);
  });

  it('use the same placeholders in both languages, and both compile', () => {
    const mismatched = Object.keys(english).filter(
      (key) => JSON.stringify(placeholders(english[key] ?? '')) !== JSON.stringify(placeholders(hindi[key] ?? '')),
    );
    expect(mismatched).toEqual([]);
  });

  it('know every key the web app names', () => {
    const namespaces = [...new Set(Object.keys(english).map((key) => key.slice(0, key.indexOf('.'))))];
    // A key is what `t(...)` or `translate(...)` is called with; arrays of keys are typed MessageKey, which TypeScript checks.
    const keyLiteral = new RegExp(`\\b(?:t|translate)\\(\\s*['"\`]((?:${namespaces.join('|')})\\.[A-Za-z0-9_.]+)['"\`]`, 'g');
    const unknown: string[] = [];
    // The admin screens stay in English (issue 33); their audit actions ("profile.update") look like keys.
    for (const file of sourceFiles(path.resolve('src/web')).filter((name) => !name.includes(`${path.sep}admin${path.sep}`))) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(keyLiteral)) {
        const key = match[1] as string;
        if (!(key in english)) unknown.push(`${path.relative('.', file)}: ${key}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('keep the inlined English (the landing page reads it without Lingui) to text and plain placeholders', () => {
    const plain = (compiled: unknown) =>
      typeof compiled === 'string' ||
      (Array.isArray(compiled) && compiled.every((token) => typeof token === 'string' || (Array.isArray(token) && token.length === 1)));
    expect(Object.keys(english).filter((key) => isInlineEnglishKey(key) && !plain(compileMessage(english[key] ?? '')))).toEqual([]);
  });

  it('hold the English messages the screens are sent verbatim, so that an English screen shows them unchanged', () => {
    // localizeMessage shows the Hindi of these keys; their English must be the message itself.
    expect(Object.entries(KNOWN_MESSAGES).filter(([message, key]) => english[key] !== message)).toEqual([]);
    const englishI18n = setupI18n({
      locale: 'en',
      messages: { en: Object.fromEntries(Object.entries(english).map(([key, text]) => [key, compileMessage(text)])) },
    });
    const samples: Record<string, string | number> = { amount: '1,500.00', limit: '10,000.00', left: '2,500.50', count: 3, until: '28 Nov, 10:42 pm' };
    for (const { pattern, key, names } of KNOWN_MESSAGE_PATTERNS) {
      const filled = englishI18n._(key, Object.fromEntries(names.map((name) => [name, samples[name] ?? ''])));
      // The pattern reads back, in order, the values the English text was filled with.
      expect(pattern.exec(filled)?.slice(1), `${key}: ${filled}`).toEqual(names.map((name) => String(samples[name])));
    }
    const singular = englishI18n._('message.pinVerificationFailed', { count: 1 });
    expect(singular).toBe('PIN verification failed. 1 attempt remaining.');
  });
});
