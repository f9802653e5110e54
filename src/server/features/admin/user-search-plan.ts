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

/**
 * One column of the sample: its values, and for each trigram of their words the rows that hold it.
 * The lists say how common a piece of text is (indexPattern), and let the judgement of a query read
 * only the rows that hold its rarest trigram instead of every sampled row (planUserSearch).
 */
export interface SampledColumn {
  readonly values: readonly string[];
  /** Indexes into `values`, ascending, each row once. */
  readonly rowsByTrigram: ReadonlyMap<string, readonly number[]>;
}

export interface UserSearchSample {
  /** About how many users the table holds. */
  readonly tableRows: number;
  /** Sampled users' lowered name and e-mail (user_search.search_text) and phone, row by row. */
  readonly searchText: SampledColumn;
  readonly phone: SampledColumn;
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

export function sampleColumn(values: readonly string[]): SampledColumn {
  const rowsByTrigram = new Map<string, number[]>();
  values.forEach((value, row) => {
    for (const word of value.toLowerCase().match(WORD) ?? []) {
      for (const trigram of trigramsOf(word)) {
        const rows = rowsByTrigram.get(trigram);
        // Rows are added in order, so a row that holds a trigram twice is already its list's last.
        if (rows === undefined) rowsByTrigram.set(trigram, [row]);
        else if (rows[rows.length - 1] !== row) rows.push(row);
      }
    }
  });
  return { values, rowsByTrigram };
}

export function userSearchSample(rows: readonly { searchText: string; phone: string }[], tableRows: number): UserSearchSample {
  return {
    tableRows,
    searchText: sampleColumn(rows.map((row) => row.searchText)),
    phone: sampleColumn(rows.map((row) => row.phone)),
  };
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
export function indexPattern(text: string, column: SampledColumn): string {
  const whole = `%${escapeLikePattern(text)}%`;
  const sampledRows = column.values.length;
  if (sampledRows === 0) return whole;
  const words = text.toLowerCase().match(WORD) ?? [];
  const countOf = (trigram: string) => column.rowsByTrigram.get(trigram)?.length ?? 0;
  const rarest = Math.min(...words.flatMap(trigramsOf).map(countOf));
  // When every piece is common, the least common ones still make the shortest lists.
  const isRare = (trigram: string) => countOf(trigram) <= Math.max(sampledRows * COMMON_TRIGRAM_SHARE, rarest * RAREST_PIECE_FACTOR);
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
  return `%${kept
    .sort((first, second) => first.order - second.order)
    .map((piece) => piece.text)
    .join('%')}%`;
}

/**
 * The rows of the column whose value contains `needle`, which is lowered. A value can contain it only
 * if it holds every trigram of the needle's words, so only the rows of its rarest trigram are
 * compared; a needle without a word of three letters or digits is compared with every row.
 */
function* rowsContaining(column: SampledColumn, needle: string): Generator<number> {
  let candidates: readonly number[] | undefined;
  for (const word of needle.match(WORD) ?? []) {
    for (const trigram of trigramsOf(word)) {
      const rows = column.rowsByTrigram.get(trigram) ?? [];
      if (candidates === undefined || rows.length < candidates.length) candidates = rows;
    }
  }
  for (const row of candidates ?? column.values.keys()) if (column.values[row]!.includes(needle)) yield row;
}

/**
 * How many sampled users' name and e-mail contain `query`, or phone contains `phoneDigits`, each
 * user counted once; the count stops as soon as `isEnough` says so.
 */
export function countSampledMatches(
  sample: UserSearchSample,
  query: string,
  phoneDigits: string,
  isEnough: (matches: number) => boolean = () => false,
): number {
  const matched = new Set<number>();
  for (const [column, needle] of [
    [sample.searchText, query.toLowerCase()],
    [sample.phone, phoneDigits.toLowerCase()],
  ] as const) {
    for (const row of rowsContaining(column, needle)) {
      matched.add(row);
      if (isEnough(matched.size)) return matched.size;
    }
  }
  return matched.size;
}

/**
 * The cheaper way to the first page of `pageRows` users whose name or e-mail contains `query`, or
 * whose phone contains `phoneDigits`, judged by the share of the sample that matches.
 */
export function planUserSearch(query: string, phoneDigits: string, pageRows: number, sample: UserSearchSample): UserSearchPlan {
  const sampledRows = sample.searchText.values.length;
  const { tableRows } = sample;
  const walkingIsCheaper = (sampledMatches: number) => {
    const share = sampledRows === 0 ? 0 : sampledMatches / sampledRows;
    const walkedUntilPageIsFull = share === 0 ? tableRows : Math.min(tableRows, pageRows / share);
    return share * tableRows * WALKED_USERS_PER_COLLECTED_MATCH > walkedUntilPageIsFull;
  };
  // The count only grows, and walking only gets cheaper as it does: it stops where walking has won.
  if (walkingIsCheaper(countSampledMatches(sample, query, phoneDigits, walkingIsCheaper))) return { way: 'walk-newest' };
  return {
    way: 'collect-matches',
    searchTextPattern: indexPattern(query, sample.searchText),
    phonePattern: indexPattern(phoneDigits, sample.phone),
  };
}
