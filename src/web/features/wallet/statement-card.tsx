import { Download } from 'lucide-react';
import { useState } from 'react';
import { daysCovered, indiaDateToday, STATEMENT_LIMITS, statementUrl, type StatementFormat } from '#shared/contracts/statements';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { apiFile } from '../../lib/api-file.ts';
import { useTranslation, type MessageKey } from '../../lib/i18n/i18n.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';

/** What is wrong with a period before asking the server, as the contract's rules say (the server checks again). */
function periodProblem(from: string, to: string): MessageKey | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return 'statement.invalidDate';
  if (from > to) return 'statement.order';
  if (to > indiaDateToday()) return 'statement.future';
  if (daysCovered(from, to) > STATEMENT_LIMITS.maxDays) return 'statement.tooLong';
  return undefined;
}

/** Saves a downloaded file under its name, as a link with `download` would. */
function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The customer's statement for a period of India dates, as PDF or CSV, made by the server
 * (docs/decisions/048). A refusal (too many movements, too many downloads) is shown here once.
 */
export function StatementCard() {
  const { t } = useTranslation();
  const endOfSession = useEndOfSessionHandler();
  const [from, setFrom] = useState(() => indiaDateToday(-30));
  const [to, setTo] = useState(() => indiaDateToday());
  const [downloading, setDownloading] = useState<StatementFormat | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const problem = periodProblem(from, to);

  const download = async (format: StatementFormat) => {
    setDownloading(format);
    setFailure(undefined);
    try {
      saveFile(await apiFile(statementUrl({ from, to, format })), `statement-${from}-to-${to}.${format}`);
    } catch (error) {
      if (!endOfSession(error)) setFailure(errorMessage(error, t('statement.failed')));
    } finally {
      setDownloading(undefined);
    }
  };

  return (
    <Card data-testid="statement-card">
      <CardHeader>
        <CardTitle>{t('statement.title')}</CardTitle>
        <CardDescription>{t('statement.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid grid-cols-2 gap-3">
          <FormField label={t('statement.from')}>
            <Input type="date" value={from} max={to} onChange={(event) => setFrom(event.target.value)} data-testid="statement-from" />
          </FormField>
          <FormField label={t('statement.to')}>
            <Input type="date" value={to} min={from} max={indiaDateToday()} onChange={(event) => setTo(event.target.value)} data-testid="statement-to" />
          </FormField>
        </div>
        {problem && <p className="text-sm text-red-600">{t(problem, { days: STATEMENT_LIMITS.maxDays })}</p>}
        {failure && <Alert variant="destructive">{failure}</Alert>}
        <div className="grid grid-cols-2 gap-3">
          {(['pdf', 'csv'] as const).map((format) => (
            <Button key={format} variant="outline" disabled={problem !== undefined || downloading !== undefined} onClick={() => void download(format)}>
              <Download />
              {downloading === format ? t('statement.preparing') : t(format === 'pdf' ? 'statement.downloadPdf' : 'statement.downloadCsv')}
            </Button>
          ))}
        </div>
      </CardContent>
    </Card>
  );
}
