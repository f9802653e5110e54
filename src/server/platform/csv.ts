/**
 * One CSV cell, safe against formula injection: a cell that a spreadsheet
 * would read as a formula (= + - @ tab CR) gets a leading apostrophe, and every
 * cell is quoted.
 */
export function csvCell(value: string): string {
  const singleLine = value.replace(/[\r\n]+/g, ' ');
  const neutralized = /^[=+\-@\t\r]/.test(singleLine) ? `'${singleLine}` : singleLine;
  return `"${neutralized.replace(/"/g, '""')}"`;
}
