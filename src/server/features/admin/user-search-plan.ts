/**
 * How the admin user search looks for a query's first page, decided from a sample of the table.
 *
 * Two ways answer the same page. Walking the users newest first, comparing each with the query,
 * is quick when matches are common ("kumar" fills a page of 20 within the newest 900 of 100,000
 * users) and endless when they are rare. Collecting every match from the trigram indexes and
 * sorting them is quick when matches are few and costs in proportion to their number. PostgreSQL
 * would choose by its own statistics, but it has to plan the statement again for each query to do
 * so (0.6 ms, more than the search), and its statistics keep about a hundred values of a column:
 * with one name in forty it saw none in three ANALYZEs out of eight, and chose to sort 2,500 rows.
 * So the app keeps a larger sample of its own and chooses; both statements are planned once.
 *
 * A trigram index finds "%customer-054321%" by intersecting the lists of rows holding each of its
 * three-letter pieces. When most users share a piece ("cus", "com" of "gmail.com", "700" of a
 * phone prefix), its list names nearly every user: reading those cost 4.5 ms on 100,000 users,
 * against 0.05 ms for "%054321%" alone. So the index is given only the query's pieces that are rare
 * in the sample, as a pattern the whole query implies; each candidate is then compared with the
 * whole query.
 */

const TRIGRAM_LENGTH = 3;

/** A piece found in more than this share of the sample is too common to be worth reading: its list is long. */
const COMMON_TRIGRAM_SHARE = 0.02;

/** The pieces handed to the index: at most two, of at most five characters (three trigrams) each. */
const MAX_PIECES = 2;
const MAX_PIECE_LENGTH = TRIGRAM_LENGTH + 2;

/** Pieces up to this many times as common as the query's rarest are asked for too. */
const RAREST_PIECE_FACTOR = 4;

/** Collecting and sorting a match costs about as much as walking past this many users. */
const WALKED_USERS_PER_COLLECTED_MATCH = 2;

/** How often each trigram appears in a sample of one column's values (each value counted once). */
export interface TrigramCounts {
  readonly size: number;
  readonly counts: ReadonlyMap<string, number>;
}

export interface UserSearchSample {
  /** About how many users the table holds. */
  readonly tableRows: number;
  /** Sampled users' lowered name and e-mail (user_search.search_text) and phone, row by row. */
  readonly searchTexts: readonly string[];
  readonly phones: readonly string[];
  readonly searchTextTrigrams: TrigramCounts;
  readonly phoneTrigrams: TrigramCounts;
}

export type UserSearchPlan =
  | { readonly way: 'walk-newest' }
  /** LIKE patterns (escape character "\") for the trigram indexes of search_text and phone. */
  | { readonly way: 'collect-matches'; readonly searchTextPattern: string; readonly phonePattern: string };

/**
 * Only runs of ASCII letters and digits: the trigram index reads runs of letters and digits as
 * words, and for these characters JavaScript's and PostgreSQL's lower case agree.
 */
const WORD = /[a-z0-9]{3,}/g;

function trigramsOf(word: string): string[] {
  const trigrams: string[] = [];
  for (let start = 0; start + TRIGRAM_LENGTH <= word.length; start += 1) trigrams.push(word.slice(start, start + TRIGRAM_LENGTH));
  return trigrams;
}

export function countTrigrams(values: readonly string[]): TrigramCounts {
  const counts = new Map<string, number>();
  for (const value of values) {
    const seen = new Set<string>();
    for (const word of value.toLowerCase().match(WORD) ?? []) for (const trigram of trigramsOf(word)) seen.add(trigram);
    for (const trigram of seen) counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  return { size: values.length, counts };
}

export function userSearchSample(rows: readonly { searchText: string; phone: string }[], tableRows: number): UserSearchSample {
  const searchTexts = rows.map((row) => row.searchText);
  const phones = rows.map((row) => row.phone);
  return { tableRows, searchTexts, phones, searchTextTrigrams: countTrigrams(searchTexts), phoneTrigrams: countTrigrams(phones) };
}

export const EMPTY_USER_SEARCH_SAMPLE = userSearchSample([], 0);

/** Escapes LIKE's wildcards so that a search for "50%" or "a_b" means those characters. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * A LIKE pattern (escape character "\") that every value containing `text` (case-insensitively)
 * matches: the rarest pieces of the query's words made only of rare trigrams, in the query's order.
 * Without a sample, or without a word of three letters or digits, the whole query.
 */
export function indexPattern(text: string, sample: TrigramCounts): string {
  const whole = `%${escapeLikePattern(text)}%`;
  if (sample.size === 0) return whole;
  const words = text.toLowerCase().match(WORD) ?? [];
  const countOf = (trigram: string) => sample.counts.get(trigram) ?? 0;
  const rarest = Math.min(...words.flatMap(trigramsOf).map(countOf));
  // When every piece is common, the least common ones still make the shortest lists.
  const isRare = (trigram: string) => countOf(trigram) <= Math.max(sample.size * COMMON_TRIGRAM_SHARE, rarest * RAREST_PIECE_FACTOR);
  const stretches: string[] = [];
  for (const word of words) {
    let start: number | undefined;
    // Stretches of one word must not overlap: "%abc%cde%" does not match "abcde".
    let nextFree = 0;
    trigramsOf(word).forEach((trigram, index) => {
      if (isRare(trigram) && (start !== undefined || index >= nextFree)) {
        start ??= index;
        return;
      }
      if (start !== undefined) {
        nextFree = index - 1 + TRIGRAM_LENGTH;
        stretches.push(word.slice(start, nextFree));
      }
      start = undefined;
    });
    if (start !== undefined) stretches.push(word.slice(start));
  }
  if (stretches.length === 0) return whole;
  // Each piece asked for costs a list read; three in a row already single out a few users.
  const pieces = stretches.map((stretch, order) => {
    let best = { text: stretch, cost: Number.POSITIVE_INFINITY, order };
    for (let start = 0; start === 0 || start + MAX_PIECE_LENGTH <= stretch.length; start += 1) {
      const piece = stretch.slice(start, start + MAX_PIECE_LENGTH);
      const cost = trigramsOf(piece).reduce((sum, trigram) => sum + countOf(trigram), 0);
      if (cost < best.cost) best = { text: piece, cost, order };
    }
    return best;
  });
  const kept = pieces.sort((first, second) => first.cost - second.cost).slice(0, MAX_PIECES);
  return `%${kept.sort((first, second) => first.order - second.order).map((piece) => piece.text).join('%')}%`;
}

/**
 * The cheaper way to the first page of `pageRows` users whose name or e-mail contains `query`, or
 * whose phone contains `phoneDigits`, judged by the share of the sample that matches.
 */
export function planUserSearch(query: string, phoneDigits: string, pageRows: number, sample: UserSearchSample): UserSearchPlan {
  const loweredQuery = query.toLowerCase();
  const loweredDigits = phoneDigits.toLowerCase();
  let sampledMatches = 0;
  sample.searchTexts.forEach((searchText, index) => {
    if (searchText.includes(loweredQuery) || (sample.phones[index] ?? '').includes(loweredDigits)) sampledMatches += 1;
  });
  const share = sample.searchTexts.length === 0 ? 0 : sampledMatches / sample.searchTexts.length;
  const matches = share * sample.tableRows;
  const walkedUntilPageIsFull = share === 0 ? sample.tableRows : Math.min(sample.tableRows, pageRows / share);
  if (matches * WALKED_USERS_PER_COLLECTED_MATCH > walkedUntilPageIsFull) return { way: 'walk-newest' };
  return {
    way: 'collect-matches',
    searchTextPattern: indexPattern(query, sample.searchTextTrigrams),
    phonePattern: indexPattern(phoneDigits, sample.phoneTrigrams),
  };
}
