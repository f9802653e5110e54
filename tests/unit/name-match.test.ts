import { describe, expect, it } from 'vitest';
import { matchNames, nameWords } from '#shared/name-match';

describe('name matching (decision 042)', () => {
  it.each([
    ['RAHUL SHARMA', 'Rahul Sharma'],
    ['RAHUL  SHARMA', ' rahul sharma '],
    ['SHARMA RAHUL', 'Rahul Sharma'],
    ['Mr. Rahul Sharma', 'RAHUL SHARMA'],
    ['SMT PRIYA DEVI', 'Priya Devi'],
    ['Shri Venkata Ramana Murthy', 'MURTHY VENKATA RAMANA'],
    ['Kumari Asha Rao', 'ASHA RAO'],
    ['Dr. Anil Kumar', 'ANIL KUMAR'],
    ['RAMKUMAR VERMA', 'Ram Kumar Verma'],
    ['Rahul.Sharma', 'RAHUL SHARMA'],
  ])('%j and %j are the same name (100)', (first, second) => {
    expect(matchNames(first, second)).toEqual({ score: 100, verdict: 'match' });
  });

  it('counts initials as 0.8 of a word and matches when a whole word matches too', () => {
    expect(matchNames('R SHARMA', 'Rahul Sharma')).toEqual({ score: 90, verdict: 'match' });
    expect(matchNames('A K SHARMA', 'Anil Kumar Sharma')).toEqual({ score: 87, verdict: 'match' });
    expect(matchNames('ANIL KUMAR SHARMA', 'A. K. Sharma')).toEqual({ score: 87, verdict: 'match' });
  });

  it('never matches on initials alone', () => {
    expect(matchNames('A K S', 'Anil Kumar Sharma')).toEqual({ score: 80, verdict: 'partial' });
  });

  it('leaves a missing middle name or a single shared word to a person', () => {
    expect(matchNames('RAHUL KUMAR SHARMA', 'Rahul Sharma')).toEqual({ score: 67, verdict: 'partial' });
    expect(matchNames('RAHUL SHARMA', 'Rahul')).toEqual({ score: 50, verdict: 'partial' });
  });

  it('refuses different people, and empty names', () => {
    expect(matchNames('PRIYA SINGH', 'Rahul Sharma')).toEqual({ score: 0, verdict: 'mismatch' });
    expect(matchNames('RAHUL VERMA', 'Rohit Sharma Gupta')).toEqual({ score: 0, verdict: 'mismatch' });
    expect(matchNames('Mr', 'Rahul')).toEqual({ score: 0, verdict: 'mismatch' });
    expect(matchNames('', '')).toEqual({ score: 0, verdict: 'mismatch' });
  });

  it('reads letters of any script, drops honorifics and punctuation', () => {
    expect(nameWords('Smt. Lakshmi  Iyer-Nair')).toEqual(['lakshmi', 'iyer', 'nair']);
    expect(matchNames('राहुल शर्मा', 'शर्मा राहुल').verdict).toBe('match');
  });
});
