import { Download, RefreshCw, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AUDIT_LOG_CSV_MAX_ROWS, type AuditLogEntry } from '#shared/contracts/admin';
import { LIMITS } from '#shared/limits';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { auditLogCsvUrl, type AuditLogFilters } from './api.ts';
import { ACTION_LABELS, actionLabel } from './audit-log-format.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

const SEARCH_DELAY_MS = 300;

function filtersFrom(searchParams: URLSearchParams): AuditLogFilters {
  return {
    q: searchParams.get('q') ?? '',
    action: searchParams.get('action') ?? '',
    targetUserId: searchParams.get('targetUserId') ?? '',
    from: searchParams.get('from') ?? '',
    to: searchParams.get('to') ?? '',
  };
}

/** The audit log's filters, kept in the address; the search follows the typed text after a pause. */
export function useAuditLogFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = filtersFrom(searchParams);
  const [searchText, setSearchText] = useState(filters.q);
  const search = useDebouncedValue(searchText.trim(), SEARCH_DELAY_MS);

  const setFilter = (name: keyof AuditLogFilters, value: string) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  };

  // The search follows the typed text after a pause, and stays in the address like every filter.
  useEffect(() => {
    setSearchParams(
      (current) => {
        if ((current.get('q') ?? '') === search) return current;
        const next = new URLSearchParams(current);
        if (search) next.set('q', search);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [search, setSearchParams]);

  return { filters, searchText, setSearchText, setFilter };
}

/** The filter fields, the chips that clear a filter, the CSV export of the current filter and Refresh. */
export function AuditLogFilterCard({
  filters,
  problems,
  searchText,
  onSearchTextChange,
  setFilter,
  filteredUser,
  refreshing,
  onRefresh,
}: {
  filters: AuditLogFilters;
  problems: Record<string, string>;
  searchText: string;
  onSearchTextChange: (text: string) => void;
  setFilter: (name: keyof AuditLogFilters, value: string) => void;
  filteredUser: AuditLogEntry['targetUser'] | undefined;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  return (
    <Card className="flex flex-col gap-4 p-4">
      <AuditLogFilterFields filters={filters} problems={problems} searchText={searchText} onSearchTextChange={onSearchTextChange} setFilter={setFilter} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap gap-2">
          {filters.targetUserId && (
            <Button variant="secondary" size="sm" onClick={() => setFilter('targetUserId', '')}>
              <X />
              {filteredUser ? `User: ${filteredUser.name}` : 'User filter'} (clear)
            </Button>
          )}
          {filters.action && (
            <Button variant="secondary" size="sm" onClick={() => setFilter('action', '')}>
              <X />
              {actionLabel(filters.action)} (clear)
            </Button>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" asChild>
            <a href={auditLogCsvUrl(filters)} download title={`The entries of the current filter, newest first, at most ${AUDIT_LOG_CSV_MAX_ROWS}`}>
              <Download />
              Export CSV
            </a>
          </Button>
          <Button variant="outline" size="sm" onClick={onRefresh} disabled={refreshing} aria-busy={refreshing}>
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** The search, the action and the India dates, each with the server schema's complaint when it has one. */
function AuditLogFilterFields({
  filters,
  problems,
  searchText,
  onSearchTextChange,
  setFilter,
}: {
  filters: AuditLogFilters;
  problems: Record<string, string>;
  searchText: string;
  onSearchTextChange: (text: string) => void;
  setFilter: (name: keyof AuditLogFilters, value: string) => void;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1fr)_minmax(0,1fr)]">
      <FormField label="Search by name or e-mail" error={problems.q}>
        <Input
          type="search"
          autoComplete="off"
          spellCheck={false}
          maxLength={LIMITS.searchQueryLength}
          placeholder="Admin or customer"
          value={searchText}
          onChange={(event) => onSearchTextChange(event.target.value)}
        />
      </FormField>
      <FormField label="Action">
        <Select value={filters.action} onChange={(event) => setFilter('action', event.target.value)}>
          <option value="">All actions</option>
          {Object.entries(ACTION_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label="From (India date)" error={problems.from}>
        <Input type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => setFilter('from', event.target.value)} />
      </FormField>
      <FormField label="To (India date)" error={problems.to}>
        <Input type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => setFilter('to', event.target.value)} />
      </FormField>
    </div>
  );
}
