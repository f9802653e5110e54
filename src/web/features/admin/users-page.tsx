import { zodResolver } from '@hookform/resolvers/zod';
import { RefreshCw, Search } from 'lucide-react';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { adminUsersQuerySchema, type AdminUserSummary } from '#shared/contracts/admin';
import { LIMITS } from '#shared/limits';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useAdminUsers } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { ROLE_LABELS, usdtText, VIP_LEVEL_LABELS } from './format.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

const SEARCH_DELAY_MS = 300;
const searchFormSchema = adminUsersQuerySchema.pick({ q: true });

function UserRow({ user }: { user: AdminUserSummary }) {
  const navigate = useNavigate();
  return (
    <TableRow>
      <TableCell label="User" wide>
        <p className="font-medium text-slate-900">{user.name}</p>
        <p className="break-all text-slate-600">{user.email}</p>
        <p className="text-slate-500">{user.phone}</p>
      </TableCell>
      <TableCell label="Balance" className="whitespace-nowrap font-medium">
        {usdtText(user.balanceUsdt)}
      </TableCell>
      <TableCell label="Role">
        <Badge tone={user.role === 'admin' ? 'brand' : 'default'}>{ROLE_LABELS[user.role]}</Badge>
      </TableCell>
      <TableCell label="VIP Level">
        <Badge tone={user.vipLevel === 'normal' ? 'default' : 'vip'}>{VIP_LEVEL_LABELS[user.vipLevel]}</Badge>
      </TableCell>
      <TableCell label="Actions" wide>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => navigate(`/admin/users/${user.id}/transactions`)} aria-describedby={`user-${user.id}`}>
            Transactions
          </Button>
          <Button size="sm" variant="ghost" asChild>
            <Link to={`/admin/users/${user.id}`} aria-describedby={`user-${user.id}`}>
              Details
            </Link>
          </Button>
          <span id={`user-${user.id}`} className="sr-only">
            {user.name}, {user.email}
          </span>
        </div>
      </TableCell>
    </TableRow>
  );
}

function UsersTable({ users }: { users: readonly AdminUserSummary[] }) {
  return (
    <Table label="Users" stacked className="md:min-w-[44rem]">
      <TableHead>
        <TableRow>
          <TableHeaderCell>User</TableHeaderCell>
          <TableHeaderCell>Balance</TableHeaderCell>
          <TableHeaderCell>Role</TableHeaderCell>
          <TableHeaderCell>VIP Level</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {users.map((user) => (
          <UserRow key={user.id} user={user} />
        ))}
      </TableBody>
    </Table>
  );
}

export default function UsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // The list follows the typed text (after a pause); submitting the form loads it again at once.
  const form = useForm<z.input<typeof searchFormSchema>>({
    resolver: zodResolver(searchFormSchema, undefined, { raw: true }),
    defaultValues: { q: searchParams.get('q') ?? '' },
  });
  const searchText = useWatch({ control: form.control, name: 'q' });
  const search = useDebouncedValue((searchText ?? '').trim(), SEARCH_DELAY_MS);
  const users = useAdminUsers(search);
  const items = users.data?.pages.flatMap((page) => page.items) ?? [];

  // The search stays in the address, so Back from a user's page returns to the same list.
  // A click away (to a user's transactions) may still be loading the next page while this one stays
  // on screen; a search that settles meanwhile must not pull the address back here.
  const { pathname } = useLocation();
  useEffect(() => {
    if (window.location.pathname !== pathname) return;
    setSearchParams(search ? { q: search } : {}, { replace: true });
  }, [search, setSearchParams, pathname]);

  return (
    <AdminPage title="User Management" backTo="/admin">
      <form role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={(event) => void form.handleSubmit(() => users.refetch())(event)}>
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="user-search">Search users</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
            <Input
              id="user-search"
              type="search"
              className="pl-9"
              placeholder="Name, email or phone"
              maxLength={LIMITS.searchQueryLength}
              {...form.register('q')}
            />
          </div>
        </div>
        <Button variant="outline" onClick={() => void users.refetch()} disabled={users.isFetching} aria-busy={users.isFetching}>
          <RefreshCw className={users.isFetching ? 'animate-spin' : undefined} />
          Refresh
        </Button>
      </form>

      {users.isPending && <LoadingState text="Loading users..." />}
      {users.isError && (
        <ErrorState title="Failed to load users" message={errorMessage(users.error, 'Error loading users list')} onRetry={() => void users.refetch()} />
      )}
      {users.isSuccess && items.length === 0 && (
        <EmptyState title="No users found">{search ? `No user matches "${search}".` : 'Could not find any user profiles'}</EmptyState>
      )}
      {items.length > 0 && (
        <>
          <UsersTable users={items} />
          <p className="text-center text-sm text-slate-500" aria-live="polite">
            Showing {items.length} {items.length === 1 ? 'user' : 'users'}
            {users.hasNextPage ? '' : ' (all results)'}
          </p>
          <LoadMore hasMore={users.hasNextPage} loading={users.isFetchingNextPage} onLoadMore={() => void users.fetchNextPage()} />
        </>
      )}
    </AdminPage>
  );
}
