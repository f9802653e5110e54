/**
 * Rules for free text people type (names, e-mails, searches, reasons): no
 * control characters, and none of the invisible or direction-changing ones
 * (zero-width spaces and joiners, bidi overrides and isolates, byte-order
 * marks, line and paragraph separators, lone surrogates). They let a name look
 * like another one, hide text in the admin screens and logs, and PostgreSQL
 * refuses NUL outright.
 */
const FORBIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

export const FORBIDDEN_CHARACTERS_MESSAGE = 'This field contains characters that are not allowed.';

/** Multi-line fields (reasons typed in a text area) may contain line breaks, and nothing else of the above. */
export function hasForbiddenCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  return FORBIDDEN_CHARACTERS.test(options.multiline ? value.replace(/\r?\n/g, '') : value);
}

/** A name must show at least one letter (of any script), not only digits, marks or symbols. */
export function hasVisibleLetter(value: string): boolean {
  return /\p{L}/u.test(value);
}
