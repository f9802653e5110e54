/**
 * The one rule that decides whether two spellings name the same person (decision 042): the PAN's
 * registered name against the customer's name now, a bank account holder and the names on documents
 * later. Indian names are written many ways, so the rule ignores:
 * - case, punctuation and spacing ("RAHUL  SHARMA", "Rahul.Sharma");
 * - honorifics (Mr, Mrs, Ms, Shri, Smt, Kumari, Dr, ...);
 * - word order ("SHARMA RAHUL");
 * - words run together or split ("Ramkumar" and "Ram Kumar");
 * and counts an initial ("R Sharma") as 0.8 of a word when it fits a word of the other name.
 *
 * The score is 100 x (whole words matched + 0.8 x initials matched) / words of the longer name.
 * The verdict: `match` at 80 or more with at least one whole word matched (initials alone never
 * match), `partial` from 50 (a person decides: a missing middle name, a surname alone), otherwise
 * `mismatch`.
 */

export type NameMatchVerdict = 'match' | 'partial' | 'mismatch';
export interface NameMatch {
  score: number;
  verdict: NameMatchVerdict;
}

export const NAME_MATCH_THRESHOLDS = { match: 80, partial: 50 } as const;
const INITIAL_WEIGHT = 0.8;
/** Longer inputs are not names; they are cut so that the work stays bounded. */
const MAX_NAME_LENGTH = 200;

const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'master',
  'shri',
  'shree',
  'sri',
  'smt',
  'shrimati',
  'srimati',
  'kumari',
  'kum',
  'km',
  'dr',
  'prof',
  'late',
  'sir',
  'madam',
]);

/** The words of a name: lower case, letters only, honorifics left out. */
export function nameWords(name: string): string[] {
  return name
    .slice(0, MAX_NAME_LENGTH)
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}]+/u)
    .filter((word) => word !== '' && !HONORIFICS.has(word));
}

function verdictOf(score: number, wholeWordsMatched: number): NameMatchVerdict {
  if (score >= NAME_MATCH_THRESHOLDS.match && wholeWordsMatched > 0) return 'match';
  if (score >= NAME_MATCH_THRESHOLDS.partial) return 'partial';
  return 'mismatch';
}

export function matchNames(first: string, second: string): NameMatch {
  const firstWords = nameWords(first);
  const secondWords = nameWords(second);
  if (firstWords.length === 0 || secondWords.length === 0) return { score: 0, verdict: 'mismatch' };
  const joined = (words: string[]) => [...words].sort().join('');
  const fullWords = (words: string[]) => words.filter((word) => word.length > 1);
  // The same letters with the spaces moved: "Ramkumar Verma" and "Ram Kumar Verma" (in their order, or sorted).
  if (firstWords.join('') === secondWords.join('') || joined(firstWords) === joined(secondWords)) {
    return { score: 100, verdict: verdictOf(100, Math.min(fullWords(firstWords).length, fullWords(secondWords).length)) };
  }
  const [shorter, longer] = firstWords.length <= secondWords.length ? [firstWords, secondWords] : [secondWords, firstWords];
  const unmatched = [...longer];
  let wholeWordsMatched = 0;
  let initialsMatched = 0;
  const pending: string[] = [];
  for (const word of shorter) {
    const exact = unmatched.indexOf(word);
    if (exact >= 0) {
      unmatched.splice(exact, 1);
      if (word.length > 1) wholeWordsMatched += 1;
      else initialsMatched += 1;
    } else {
      pending.push(word);
    }
  }
  // Initials last, so that they take only the words no whole word claimed.
  for (const word of pending) {
    const fits = unmatched.findIndex((other) => (word.length === 1 ? other.startsWith(word) : other.length === 1 && word.startsWith(other)));
    if (fits >= 0) {
      unmatched.splice(fits, 1);
      initialsMatched += 1;
    }
  }
  const score = Math.round((100 * (wholeWordsMatched + INITIAL_WEIGHT * initialsMatched)) / longer.length);
  return { score, verdict: verdictOf(score, wholeWordsMatched) };
}
