/** Most bytes in an uploaded results file. */
export const RESULTS_CSV_MAX_BYTES = 1024 * 1024;

/**
 * Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF line ends)
 * into rows of cells; undefined when a quote is left open. Blank lines are skipped.
 */
export function parseCsv(text: string): string[][] | undefined {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(cell);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    cell = '';
  };
  for (; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"' && cell === '') quoted = true;
    else if (character === ',') {
      row.push(cell);
      cell = '';
    } else if (character === '\n') endRow();
    else if (character !== '\r') cell += character;
  }
  if (quoted) return undefined;
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

/** Header names of results files (ours, and the names banks' status files use), lower-cased, by the field they fill. */
const RESULT_COLUMNS: Record<string, 'reference' | 'withdrawalId' | 'outcome' | 'utr' | 'reason' | 'amountInr'> = {
  reference: 'reference',
  'withdrawal reference': 'reference',
  'customer reference': 'reference',
  'customer reference number': 'reference',
  'customer ref no': 'reference',
  'payment reference': 'reference',
  reference_id: 'reference',
  // The references the provider layouts carry (decision 064): RazorpayX's payout reference id, Plural's client reference id.
  'payout reference id': 'reference',
  clientreferenceid: 'reference',
  narration: 'reference',
  withdrawalid: 'withdrawalId',
  'withdrawal id': 'withdrawalId',
  outcome: 'outcome',
  status: 'outcome',
  'transaction status': 'outcome',
  'payment status': 'outcome',
  utr: 'utr',
  'utr number': 'utr',
  'utr no': 'utr',
  'utr no.': 'utr',
  rrn: 'utr',
  'utr/rrn': 'utr',
  'bank reference': 'utr',
  reason: 'reason',
  'failure reason': 'reason',
  'return reason': 'reason',
  'rejection reason': 'reason',
  amount: 'amountInr',
  'amount (inr)': 'amountInr',
  'amount(inr)': 'amountInr',
  'transaction amount': 'amountInr',
};

/** Banks' words for a payment's status, by our outcome. */
const OUTCOME_WORDS: Record<string, 'paid' | 'failed' | 'not_sent'> = {
  paid: 'paid',
  success: 'paid',
  successful: 'paid',
  processed: 'paid',
  completed: 'paid',
  executed: 'paid',
  failed: 'failed',
  failure: 'failed',
  rejected: 'failed',
  returned: 'failed',
  reversed: 'failed',
  not_sent: 'not_sent',
  'not sent': 'not_sent',
  'not processed': 'not_sent',
  cancelled: 'not_sent',
};

/** Our short reference inside a narration such as "Rupeedesk RD7K3F92QX". */
const SHORT_REFERENCE_IN_TEXT = /\b(RD[A-Z0-9]{8})\b/;

/**
 * Turns a results file (a header row naming the reference or the withdrawal id, and the outcome,
 * and optionally the UTR, a reason and the amount, in any order, under our names or a bank's)
 * into the objects the JSON form takes; undefined without the required columns. Empty cells are left out.
 */
export function resultRowsFromCsv(text: string): Record<string, string>[] | undefined {
  const rows = parseCsv(text);
  const header = rows?.[0]?.map((name) => RESULT_COLUMNS[name.trim().toLowerCase()]);
  if (!rows || !header || !header.includes('outcome') || !(header.includes('reference') || header.includes('withdrawalId'))) return undefined;
  return rows.slice(1).map((cells) => {
    const row: Record<string, string> = {};
    header.forEach((field, column) => {
      const value = cells[column]?.trim() ?? '';
      if (field === undefined || value === '' || row[field] !== undefined) return;
      if (field === 'reference') row[field] = SHORT_REFERENCE_IN_TEXT.exec(value.toUpperCase())?.[1] ?? value;
      else if (field === 'outcome') row[field] = OUTCOME_WORDS[value.toLowerCase()] ?? value;
      else if (field === 'amountInr') row[field] = value.replace(/,/g, '');
      else row[field] = value;
    });
    return row;
  });
}
