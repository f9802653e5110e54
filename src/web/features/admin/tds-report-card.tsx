import { Download } from 'lucide-react';
import { useState } from 'react';
import { tdsReportQuerySchema } from '#shared/contracts/withdrawal-rules';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';

/** Today's date in India time, YYYY-MM-DD, as the report reads its dates. */
function indiaDate(offsetDays = 0): string {
  const date = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** Same-origin link that downloads the TDS report; the session cookie goes along. */
export const tdsReportCsvUrl = (from: string, to: string) => `/api/admin/reports/tds.csv?${new URLSearchParams({ from, to }).toString()}`;

/**
 * The TDS (section 194S) report for the quarterly return: withdrawals with TDS
 * that were not rejected, between two India dates, as CSV (docs/decisions/018).
 */
export function TdsReportCard() {
  const [from, setFrom] = useState(() => indiaDate(-30));
  const [to, setTo] = useState(() => indiaDate());
  const checked = tdsReportQuerySchema.safeParse({ from, to });
  const problem = checked.success ? undefined : checked.error.issues[0]?.message;
  return (
    <section className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5" aria-labelledby="tds-report-title">
      <div>
        <h2 id="tds-report-title" className="text-base font-semibold">
          TDS report
        </h2>
        <p className="text-sm text-slate-600">PAN, name, e-mail, withdrawal reference, gross, TDS and net INR of each withdrawal with TDS, by India date.</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <FormField label="From">
          <Input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </FormField>
        <FormField label="To">
          <Input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        </FormField>
        {problem ? (
          <Button variant="outline" disabled>
            <Download />
            Download CSV
          </Button>
        ) : (
          <Button variant="outline" asChild>
            <a href={tdsReportCsvUrl(from, to)} download data-testid="tds-report-download">
              <Download />
              Download CSV
            </a>
          </Button>
        )}
      </div>
      {problem && <p className="text-sm text-red-600">{problem}</p>}
    </section>
  );
}
