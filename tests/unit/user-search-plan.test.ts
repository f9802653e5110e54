import { describe, expect, it } from 'vitest';
import {
  countSampledMatches,
  EMPTY_USER_SEARCH_SAMPLE,
  indexPattern,
  planUserSearch,
  sampleColumn,
  userSearchSample,
} from '../../src/server/features/admin/user-search-plan.ts';
import { normalizePhone } from '#shared/contracts/auth';

/** What LIKE (escape character "\") accepts, as a regular expression; the values searched are lowered. */
function likeToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index]!;
    if (character === '\\') source += pattern[++index]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (character === '%') source += '[\\s\\S]*';
    else if (character === '_') source += '[\\s\\S]';
    else source += character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** A repeatable stream of random numbers below a bound, and of texts from an alphabet. */
function randomTexts(alphabet: string, seed: number) {
  let state = seed;
  const random = (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
  const text = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
  return { random, text };
}

const customerEmails = Array.from({ length: 101 }, (_, index) => `aarav sharma\u001fcustomer-${String(index * 997).padStart(6, '0')}@example.com`);
const phones = Array.from({ length: 101 }, (_, index) => `+91${7000000000 + index * 12_871}`);

describe('the pattern the user search hands to the trigram index', () => {
  it('is the whole query, escaped, while PostgreSQL has no sample of the column', () => {
    expect(indexPattern('customer-054321', EMPTY_USER_SEARCH_SAMPLE.searchText)).toBe('%customer-054321%');
    expect(indexPattern('50%_a\\b', EMPTY_USER_SEARCH_SAMPLE.searchText)).toBe('%50\\%\\_a\\\\b%');
  });

  it('leaves out the pieces nearly every user shares', () => {
    const sample = sampleColumn(customerEmails);
    expect(indexPattern('customer-054321', sample)).toBe('%54321%');
    expect(indexPattern('Customer-054321@Example.com', sample)).toBe('%54321%');
    expect(indexPattern('7000055146', sampleColumn(phones))).not.toContain('700');
  });

  it('asks for at most two pieces of at most five letters, the rarest, in the order of the query', () => {
    expect(indexPattern('Rahul Sharma', sampleColumn(phones))).toBe('%rahul%sharm%');
    // "aarav" and "sharma" are in every sampled value, "zubin" and "kumar" in none.
    expect(indexPattern('Zubin Aarav Kumar Sharma', sampleColumn(customerEmails))).toBe('%zubin%kumar%');
  });

  it('never lets two stretches of one word overlap', () => {
    // "bcd" is common: "abc" and "cde" would share the "c" of "abcdef".
    const sample = sampleColumn(['xbcdx', 'ybcdy', 'zbcdz']);
    const pattern = indexPattern('abcdef', sample);
    expect(pattern).toBe('%abc%def%');
    expect(likeToRegExp(pattern).test('abcdef')).toBe(true);
  });

  it('asks for the least common pieces when every piece is common', () => {
    const sample = sampleColumn(customerEmails);
    expect(indexPattern('example.com', sample)).toBe('%examp%com%');
    // "aarav" and "sharma" are in every sampled value, "kumar" in a tenth: "aarav" is left out.
    const tenthKumar = sampleColumn(customerEmails.map((value, index) => (index % 10 === 0 ? value.replace('sharma', 'kumar') : value)));
    expect(indexPattern('Aarav Kumar', tenthKumar)).toBe('%kumar%');
  });

  it('is the whole query when it has no word of three plain letters or digits', () => {
    const sample = sampleColumn(customerEmails);
    expect(indexPattern('अमित', sample)).toBe('%अमित%');
    expect(indexPattern('a_b', sample)).toBe('%a\\_b%');
  });

  it('is matched by every value that contains the query, whatever the sample', () => {
    const { random, text: word } = randomTexts('abcab01-. _%', 7);
    for (let round = 0; round < 2_000; round += 1) {
      const sample = sampleColumn(Array.from({ length: random(12) }, () => word(3 + random(12))));
      const query = word(1 + random(14));
      const value = `${word(random(5))}${random(2) === 0 ? query.toUpperCase() : query}${word(random(5))}`.toLowerCase();
      // The statement lowers the pattern, as it lowers the whole query: lower($1).
      const pattern = indexPattern(query, sample).toLowerCase();
      expect(likeToRegExp(pattern).test(value), `${JSON.stringify(query)} -> ${pattern} must match ${JSON.stringify(value)}`).toBe(true);
    }
  });
});

describe('the way the user search takes to its first page', () => {
  // 2,000 sampled users of 100,000: one in forty is a Kumar, one in 2,000 a Zubin.
  const rows = Array.from({ length: 2_000 }, (_, index) => ({
    searchText: `${index === 0 ? 'zubin' : 'aarav'} ${index % 40 === 1 ? 'kumar' : 'sharma'}\u001fcustomer-${String(index * 49).padStart(6, '0')}@example.com`,
    phone: `+91${7000000000 + index * 49}`,
  }));
  const sample = userSearchSample(rows, 100_000);

  it('walks the newest users when matches are common enough to fill a page soon', () => {
    expect(planUserSearch('Kumar', 'Kumar', 21, sample)).toEqual({ way: 'walk-newest' });
    expect(planUserSearch('example.com', 'example.com', 21, sample)).toEqual({ way: 'walk-newest' });
  });

  it('collects the matches from the indexes when they are few, asking only for the rare pieces', () => {
    const plan = planUserSearch('customer-000049', 'customer000049', 21, sample);
    expect(plan.way).toBe('collect-matches');
    expect(plan.way === 'collect-matches' && plan.searchTextPattern).toMatch(/^%[0-9]{5}%$/);
    expect(planUserSearch('zubin', 'zubin', 21, sample)).toMatchObject({ way: 'collect-matches' });
  });

  it('weighs the page size: a match in fifty fills one page soon, not two hundred', () => {
    const everyFiftieth = userSearchSample(
      Array.from({ length: 1_000 }, (_, index) => ({ searchText: index % 50 === 0 ? 'meera' : 'other', phone: '+91' })),
      100_000,
    );
    expect(planUserSearch('meera', 'meera', 21, everyFiftieth)).toMatchObject({ way: 'walk-newest' });
    expect(planUserSearch('meera', 'meera', 4_001, everyFiftieth)).toMatchObject({ way: 'collect-matches' });
  });

  it('counts the sampled users that match as comparing the query with every one would, though it reads only the rows of its rarest trigram', () => {
    const { random, text } = randomTexts('abcab0101 -.\u001fAB+', 11);
    let someMatched = 0;
    for (let round = 0; round < 3_000; round += 1) {
      // The sampled name and e-mail are lowered by PostgreSQL; the query is as typed.
      const rows = Array.from({ length: random(60) }, () => ({ searchText: text(random(14)).toLowerCase(), phone: `+91${text(random(8))}` }));
      const query = text(random(7));
      const phoneDigits = normalizePhone(query);
      const plainCount = rows.filter((row) => row.searchText.includes(query.toLowerCase()) || row.phone.includes(phoneDigits.toLowerCase())).length;
      if (plainCount > 0 && plainCount < rows.length) someMatched += 1;
      const sample = userSearchSample(rows, rows.length);
      expect(countSampledMatches(sample, query, phoneDigits), `${JSON.stringify(query)} in ${JSON.stringify(rows)}`).toBe(plainCount);
      expect(countSampledMatches(sample, query, phoneDigits, (matches) => matches >= 2)).toBe(Math.min(plainCount, 2));
    }
    expect(someMatched).toBeGreaterThan(500);
  });

  it('collects the matches of a table it has no sample of', () => {
    expect(planUserSearch('kumar', 'kumar', 21, EMPTY_USER_SEARCH_SAMPLE)).toEqual({
      way: 'collect-matches',
      searchTextPattern: '%kumar%',
      phonePattern: '%kumar%',
    });
  });
});
