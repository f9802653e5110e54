import { createRequire } from 'node:module';
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import { formatInrForDisplay, formatUsdtIndian } from '#shared/money';
import type { Statement, StatementLine } from './statement.ts';
import { statementDateTime, statementDay, type StatementLabels } from './labels.ts';

/*
 * The statement as a PDF (docs/decisions/048), drawn with PDFKit in Noto Sans Devanagari, which holds
 * Latin, Devanagari and the rupee sign, so English and Hindi statements use one font and every glyph is
 * embedded (subset). Text in Devanagari is drawn in visual order (a pre-base vowel sign before its
 * consonant), so each such text is also marked with its logical text (ActualText) for copying and search.
 */

const require = createRequire(import.meta.url);
const FONT_PACKAGE = '@expo-google-fonts/noto-sans-devanagari';
let fonts: { regular: Buffer; semiBold: Buffer } | undefined;
function statementFonts(): { regular: Buffer; semiBold: Buffer } {
  fonts ??= {
    regular: fs.readFileSync(require.resolve(`${FONT_PACKAGE}/400Regular/NotoSansDevanagari_400Regular.ttf`)),
    semiBold: fs.readFileSync(require.resolve(`${FONT_PACKAGE}/600SemiBold/NotoSansDevanagari_600SemiBold.ttf`)),
  };
  return fonts;
}

const PAGE_MARGIN = 36;
const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * PAGE_MARGIN;
const FOOTER_HEIGHT = 28;
const ROW_GAP = 5;
const TEXT_COLOR = '#0f172a';
const MUTED_COLOR = '#475569';
const RULE_COLOR = '#cbd5e1';

/** The table's columns: where each starts and how wide it is, in points. */
const COLUMNS = {
  date: { x: PAGE_MARGIN, width: 78 },
  description: { x: PAGE_MARGIN + 80, width: 156 },
  credit: { x: PAGE_MARGIN + 238, width: 93 },
  debit: { x: PAGE_MARGIN + 333, width: 93 },
  balance: { x: PAGE_MARGIN + 428, width: CONTENT_WIDTH - 428 },
} as const;
const DETAILS_X = COLUMNS.description.x;
const DETAILS_WIDTH = PAGE_MARGIN + CONTENT_WIDTH - DETAILS_X;

const DEVANAGARI = /[\u0900-\u097f]/;
/**
 * Drawing is synchronous and costs about 2 ms a line (shaping); after this many lines the event loop takes
 * its turn, so a long statement delays other requests of this process by tens of milliseconds, not seconds.
 */
const LINES_PER_TURN = 20;

type Document = InstanceType<typeof PDFDocument>;

/** Text at a place; Devanagari text is marked with its logical text for the readers that copy or search it. */
function write(document: Document, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions): void {
  const marked = DEVANAGARI.test(text);
  if (marked) document.markContent('Span', { actual: text });
  document.text(text, x, y, options);
  if (marked) document.endMarkedContent();
}

function money(amountUsdtMicros: bigint): string {
  return formatUsdtIndian(amountUsdtMicros);
}

function drawHeader(document: Document, statement: Statement, labels: StatementLabels): number {
  const { holder, language } = statement;
  let y = PAGE_MARGIN;
  document.font('semiBold').fontSize(16).fillColor(TEXT_COLOR);
  write(document, statement.operatorName, PAGE_MARGIN, y, { width: CONTENT_WIDTH, lineBreak: false });
  y += 22;
  document.fontSize(12);
  write(document, labels.title, PAGE_MARGIN, y, { width: CONTENT_WIDTH, lineBreak: false });
  y += 20;
  document.font('regular').fontSize(9).fillColor(MUTED_COLOR);
  const facts: [string, string][] = [
    [labels.period, `${statementDay(language, statement.from)} – ${statementDay(language, statement.to)}`],
    [labels.generated, `${statementDateTime(language, statement.generatedAt)} IST`],
    [labels.name, holder.name],
    [labels.mobile, holder.maskedPhone],
  ];
  for (const [label, value] of facts) {
    write(document, `${label}: ${value}`, PAGE_MARGIN, y, { width: CONTENT_WIDTH, lineBreak: false });
    y += 13;
  }
  y += 8;

  const totals: [string, bigint][] = [
    [labels.openingBalance, statement.openingUsdtMicros],
    [labels.totalCredits, statement.totalCreditsUsdtMicros],
    [labels.totalDebits, statement.totalDebitsUsdtMicros],
    [labels.closingBalance, statement.closingUsdtMicros],
  ];
  const boxWidth = CONTENT_WIDTH / totals.length;
  document.lineWidth(0.5).strokeColor(RULE_COLOR).rect(PAGE_MARGIN, y, CONTENT_WIDTH, 38).stroke();
  totals.forEach(([label, amount], index) => {
    const x = PAGE_MARGIN + index * boxWidth + 6;
    document.font('regular').fontSize(8).fillColor(MUTED_COLOR);
    write(document, label, x, y + 6, { width: boxWidth - 12, lineBreak: false });
    document.font('semiBold').fontSize(9).fillColor(TEXT_COLOR);
    write(document, `${money(amount)} USDT`, x, y + 20, { width: boxWidth - 12, lineBreak: false });
  });
  y += 46;
  document.font('regular').fontSize(7).fillColor(MUTED_COLOR);
  write(document, labels.amountsNote, PAGE_MARGIN, y, { width: CONTENT_WIDTH });
  return document.y + 8;
}

function drawTableHeader(document: Document, labels: StatementLabels, y: number): number {
  document.rect(PAGE_MARGIN, y, CONTENT_WIDTH, 16).fill('#f1f5f9');
  document.font('semiBold').fontSize(8).fillColor(TEXT_COLOR);
  write(document, labels.date, COLUMNS.date.x + 2, y + 4, { width: COLUMNS.date.width - 2, lineBreak: false });
  write(document, labels.description, COLUMNS.description.x, y + 4, { width: COLUMNS.description.width, lineBreak: false });
  write(document, labels.credit, COLUMNS.credit.x, y + 4, { width: COLUMNS.credit.width, align: 'right', lineBreak: false });
  write(document, labels.debit, COLUMNS.debit.x, y + 4, { width: COLUMNS.debit.width, align: 'right', lineBreak: false });
  write(document, labels.balance, COLUMNS.balance.x, y + 4, { width: COLUMNS.balance.width - 2, align: 'right', lineBreak: false });
  return y + 20;
}

/** The second line of a movement: its reference, UTR, INR, network, hash and counterparty, whichever it has. */
function detailsOf(line: StatementLine, labels: StatementLabels): string {
  const parts: string[] = [];
  if (line.reference) parts.push(`${labels.reference}: ${line.reference}`);
  if (line.utr) parts.push(`${labels.utr}: ${line.utr}`);
  if (line.inrToBankPaise !== null) {
    const tds = line.tdsInrPaise !== null && line.tdsInrPaise > 0n ? ` (${labels.tds} ${formatInrForDisplay(line.tdsInrPaise)})` : '';
    parts.push(`${labels.inrToBank}: ${formatInrForDisplay(line.inrToBankPaise)}${tds}`);
  }
  if (line.network) parts.push(`${labels.network}: ${line.network}`);
  if (line.transactionHash) parts.push(`${labels.transactionHash}: ${line.transactionHash}`);
  if (line.counterparty) parts.push(`${labels.counterparty}: ${line.counterparty}`);
  return parts.join('   ');
}

function drawLine(document: Document, line: StatementLine, labels: StatementLabels, language: Statement['language'], y: number): void {
  document.font('regular').fontSize(8).fillColor(TEXT_COLOR);
  write(document, statementDateTime(language, line.createdAt), COLUMNS.date.x + 2, y, { width: COLUMNS.date.width - 2, lineBreak: false });
  write(document, line.description, COLUMNS.description.x, y, { width: COLUMNS.description.width, lineBreak: false });
  if (line.signedUsdtMicros > 0n)
    write(document, money(line.signedUsdtMicros), COLUMNS.credit.x, y, { width: COLUMNS.credit.width, align: 'right', lineBreak: false });
  else write(document, money(-line.signedUsdtMicros), COLUMNS.debit.x, y, { width: COLUMNS.debit.width, align: 'right', lineBreak: false });
  write(document, money(line.balanceUsdtMicros), COLUMNS.balance.x, y, { width: COLUMNS.balance.width - 2, align: 'right', lineBreak: false });
  const details = detailsOf(line, labels);
  if (details !== '') {
    document.fontSize(7).fillColor(MUTED_COLOR);
    write(document, details, DETAILS_X, y + 11, { width: DETAILS_WIDTH });
  }
}

function lineHeight(document: Document, line: StatementLine, labels: StatementLabels): number {
  const details = detailsOf(line, labels);
  if (details === '') return 11 + ROW_GAP;
  document.font('regular').fontSize(7);
  return 11 + document.heightOfString(details, { width: DETAILS_WIDTH }) + ROW_GAP;
}

/** The statement as PDF bytes. */
export async function renderStatementPdf(statement: Statement, labels: StatementLabels): Promise<Buffer> {
  const { regular, semiBold } = statementFonts();
  const document = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    bufferPages: true,
    lang: statement.language === 'hi' ? 'hi-IN' : 'en-IN',
    info: { Title: `${labels.title} ${statement.from} – ${statement.to}`, Author: statement.operatorName, Creator: statement.operatorName },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    document.on('end', resolve);
    document.on('error', reject);
  });
  document.registerFont('regular', regular);
  document.registerFont('semiBold', semiBold);

  const bottom = PAGE_HEIGHT - PAGE_MARGIN - FOOTER_HEIGHT;
  let y = drawTableHeader(document, labels, drawHeader(document, statement, labels));
  if (statement.lines.length === 0) {
    document.font('regular').fontSize(9).fillColor(MUTED_COLOR);
    write(document, labels.noMovements, PAGE_MARGIN, y + 4, { width: CONTENT_WIDTH });
  }
  for (const [index, line] of statement.lines.entries()) {
    if (index > 0 && index % LINES_PER_TURN === 0) await nextTurn();
    const height = lineHeight(document, line, labels);
    if (y + height > bottom) {
      document.addPage();
      y = drawTableHeader(document, labels, PAGE_MARGIN);
    }
    drawLine(document, line, labels, statement.language, y);
    y += height;
    document
      .lineWidth(0.25)
      .strokeColor(RULE_COLOR)
      .moveTo(PAGE_MARGIN, y - ROW_GAP / 2)
      .lineTo(PAGE_MARGIN + CONTENT_WIDTH, y - ROW_GAP / 2)
      .stroke();
  }

  const range = document.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    document.switchToPage(index);
    // The footer sits in the bottom margin; without a margin there PDFKit would not start a new page for it.
    document.page.margins.bottom = 0;
    document.font('regular').fontSize(7).fillColor(MUTED_COLOR);
    write(document, `${statement.operatorName} · ${statement.holder.name}`, PAGE_MARGIN, PAGE_HEIGHT - PAGE_MARGIN - 10, {
      width: CONTENT_WIDTH / 2,
      lineBreak: false,
    });
    write(document, labels.page(index + 1, range.count), PAGE_MARGIN + CONTENT_WIDTH / 2, PAGE_HEIGHT - PAGE_MARGIN - 10, {
      width: CONTENT_WIDTH / 2,
      align: 'right',
      lineBreak: false,
    });
  }
  document.end();
  await finished;
  return Buffer.concat(chunks);
}
