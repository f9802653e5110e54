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

/**
 * Turns a results file (a header row naming withdrawalId, outcome, utr, reason in
 * any order) into the objects the JSON form takes; undefined without the two
 * required columns. Empty cells are left out.
 */
export function resultRowsFromCsv(text: string): Record<string, string>[] | undefined {
  const rows = parseCsv(text);
  const header = rows?.[0]?.map((name) => name.trim());
  if (!rows || !header || !header.includes('withdrawalId') || !header.includes('outcome')) return undefined;
  const known = new Set(['withdrawalId', 'outcome', 'utr', 'reason']);
  return rows.slice(1).map((cells) => {
    const row: Record<string, string> = {};
    header.forEach((name, column) => {
      const value = cells[column]?.trim() ?? '';
      if (known.has(name) && value !== '') row[name] = value;
    });
    return row;
  });
}
