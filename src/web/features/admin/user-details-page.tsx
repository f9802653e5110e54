import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ClipboardList, LogOut, Receipt } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { adminUserAccessFormSchema, type AdminUserAccessForm, type AdminUserDetail, type UpdateAdminUserRequest } from '#shared/contracts/admin';
import { AdminPage } from './components/admin-page.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useMe } from '../../lib/session.ts';
import { adminKeys, isUserNotFound, revokeUserSessions, updateAdminUser, useAdminUser } from './api.ts';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { UserNotFound } from './components/user-not-found.tsx';
import { ClosedAccountCard } from './closed-account-card.tsx';
import { UserKycCard } from './user-kyc-card.tsx';
import { UserPayeesCard } from './user-payees-card.tsx';
import { fullDateTimeText, ROLE_LABELS, usdtText, VIP_LEVEL_LABELS } from './format.ts';
import { roleSchema, vipLevelSchema } from '#shared/contracts/enums';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-slate-500">{term}</dt>
      <dd className="break-all text-sm font-medium text-slate-900 sm:text-right">{children}</dd>
    </div>
  );
}

function AccessForm({ user, isSelf }: { user: AdminUserDetail; isSelf: boolean }) {
  const queryClient = useQueryClient();
  const form = useForm<AdminUserAccessForm>({ resolver: zodResolver(adminUserAccessFormSchema), defaultValues: { role: user.role, vipLevel: user.vipLevel } });
  const [role, vipLevel] = useWatch({ control: form.control, name: ['role', 'vipLevel'] });
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);

  const changes: UpdateAdminUserRequest = {
    ...(role !== user.role ? { role } : {}),
    ...(vipLevel !== user.vipLevel ? { vipLevel } : {}),
  };
  const hasChanges = changes.role !== undefined || changes.vipLevel !== undefined;

  const save = async () => {
    setSaving(true);
    try {
      const answer = await updateAdminUser(user.id, changes);
      queryClient.setQueryData(adminKeys.user(user.id), answer.user);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(answer.message);
      setConfirming(false);
    } catch (error) {
      toast.error('Failed to update user', { description: errorMessage(error, 'Please try again.') });
      setConfirming(false);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Role and VIP level</CardTitle>
        <CardDescription>
          VIP levels get the VIP rate on withdrawals and may view the admin dashboard and settings (read only). Admins can change everything.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) =>
            void form.handleSubmit(() => {
              if (hasChanges) setConfirming(true);
            })(event)
          }
        >
          <AccessFields form={form} isSelf={isSelf} saving={saving} />
          <div className="flex justify-end">
            <Button type="submit" disabled={!hasChanges || saving}>
              Save changes
            </Button>
          </div>
        </form>
        <ConfirmDialog
          open={confirming}
          onOpenChange={(open) => !saving && setConfirming(open)}
          title="Change this user's access?"
          description={`${user.name} (${user.email}) will be changed as follows.`}
          confirmLabel={saving ? 'Saving...' : 'Confirm change'}
          busy={saving}
          onConfirm={() => void save()}
        >
          <AccessChangeList user={user} changes={changes} />
        </ConfirmDialog>
      </CardContent>
    </Card>
  );
}

/** The role and VIP level selects; an admin cannot change their own. */
function AccessFields({ form, isSelf, saving }: { form: UseFormReturn<AdminUserAccessForm>; isSelf: boolean; saving: boolean }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField
        label="Role"
        help={
          isSelf
            ? 'You cannot remove your own admin role.'
            : 'A second admin confirms a grant of the admin role, and its removal while two admins exist. With a single admin, the role is granted on the server: npm run admin -- promote <email>.'
        }
      >
        <Select {...form.register('role')} disabled={isSelf || saving}>
          {roleSchema.options.map((option) => (
            <option key={option} value={option}>
              {ROLE_LABELS[option]}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label="VIP Level" {...(isSelf ? { help: 'You cannot change your own VIP level: another admin must.' } : {})}>
        <Select {...form.register('vipLevel')} disabled={isSelf || saving}>
          {vipLevelSchema.options.map((option) => (
            <option key={option} value={option}>
              {VIP_LEVEL_LABELS[option]}
            </option>
          ))}
        </Select>
      </FormField>
    </div>
  );
}

/** What the confirmation lists: each changed value, old and new. */
function AccessChangeList({ user, changes }: { user: AdminUserDetail; changes: UpdateAdminUserRequest }) {
  return (
    <ul className="list-disc pl-5 text-sm text-slate-700">
      {changes.role !== undefined && (
        <li>
          Role: {ROLE_LABELS[user.role]} → {ROLE_LABELS[changes.role]}
        </li>
      )}
      {changes.vipLevel !== undefined && (
        <li>
          VIP level: {VIP_LEVEL_LABELS[user.vipLevel]} → {VIP_LEVEL_LABELS[changes.vipLevel]}
        </li>
      )}
    </ul>
  );
}

function SessionsCard({ user, isSelf }: { user: AdminUserDetail; isSelf: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [ending, setEnding] = useState(false);

  const endSessions = async () => {
    setEnding(true);
    try {
      const answer = await revokeUserSessions(user.id);
      await queryClient.invalidateQueries({ queryKey: adminKeys.user(user.id) });
      toast.success(answer.message, { description: answer.sessionsEnded === 1 ? '1 session ended' : `${answer.sessionsEnded} sessions ended` });
    } catch (error) {
      toast.error('Failed to end sessions', { description: errorMessage(error, 'Please try again.') });
    } finally {
      setEnding(false);
      setConfirming(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
        <CardDescription>
          {user.activeSessionCount === 1 ? '1 active session' : `${user.activeSessionCount} active sessions`}. Ending them signs the user out on every device.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setConfirming(true)} disabled={ending}>
          <LogOut />
          End all sessions
        </Button>
        <ConfirmDialog
          open={confirming}
          onOpenChange={(open) => !ending && setConfirming(open)}
          title="End all sessions?"
          description={
            isSelf
              ? 'This is your own account: you will be signed out here too and must log in again.'
              : `${user.name} will be signed out on every device and must log in again.`
          }
          confirmLabel={ending ? 'Ending...' : 'End all sessions'}
          destructive
          busy={ending}
          onConfirm={() => void endSessions()}
        />
      </CardContent>
    </Card>
  );
}

function UserDetails({ user, isSelf }: { user: AdminUserDetail; isSelf: boolean }) {
  return (
    <>
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle>{user.name}</CardTitle>
            <Badge tone={user.role === 'admin' ? 'brand' : 'default'}>{ROLE_LABELS[user.role]}</Badge>
            <Badge tone={user.vipLevel === 'normal' ? 'default' : 'vip'}>{VIP_LEVEL_LABELS[user.vipLevel]}</Badge>
            {user.closedAt !== null && <Badge tone="danger">Closed</Badge>}
          </div>
          <CardDescription>Balance: {usdtText(user.balanceUsdt)}</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="flex flex-col gap-3">
            <Detail term="Email">{user.email}</Detail>
            <Detail term="Phone">{user.phone}</Detail>
            <Detail term="Balance">{usdtText(user.balanceUsdt)}</Detail>
            <Detail term="Transaction PIN">{user.hasPin ? 'Set' : 'Not set'}</Detail>
            <Detail term="Joined">{fullDateTimeText(user.createdAt)}</Detail>
            <Detail term="Last changed">{fullDateTimeText(user.updatedAt)}</Detail>
            <Detail term="User ID">
              <span className="font-mono text-xs">{user.id}</span>
            </Detail>
          </dl>
          <div className="mt-4 flex flex-wrap gap-2">
            <Button variant="outline" size="sm" asChild>
              <Link to={`/admin/users/${user.id}/transactions`}>
                <Receipt />
                View transactions
              </Link>
            </Button>
            <Button variant="outline" size="sm" asChild>
              <Link to={`/admin/audit-log?targetUserId=${user.id}`}>
                <ClipboardList />
                Audit log for this user
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Referrals</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="flex flex-col gap-3">
            <Detail term="Referral code">{user.referralCode}</Detail>
            <Detail term="Referred by">
              {user.referredBy ? (
                <Link className="text-brand-700 hover:underline" to={`/admin/users/${user.referredBy.id}`}>
                  {user.referredBy.name} ({user.referredBy.email}, {user.referredBy.referralCode})
                </Link>
              ) : (
                'Nobody'
              )}
            </Detail>
            <Detail term="Users referred">{user.referralCount}</Detail>
            <Detail term="Referral earnings">{usdtText(user.referralEarningsUsdt)}</Detail>
          </dl>
        </CardContent>
      </Card>

      {user.closedAt !== null && <ClosedAccountCard user={user} closedAt={user.closedAt} />}
      {/* Re-created when the user changes, so the selects start from the saved values. */}
      <AccessForm key={`${user.role}-${user.vipLevel}-${user.updatedAt}`} user={user} isSelf={isSelf} />
      <SessionsCard user={user} isSelf={isSelf} />
      <UserKycCard userId={user.id} isSelf={isSelf} />
      {!isSelf && <UserPayeesCard userId={user.id} />}
    </>
  );
}

export default function UserDetailsPage() {
  const { userId = '' } = useParams();
  const me = useMe();
  const user = useAdminUser(userId);

  return (
    <AdminPage title="User Details" backTo="/admin/users">
      {user.isPending && <LoadingState text="Loading user..." />}
      {user.isError &&
        (isUserNotFound(user.error) ? (
          <UserNotFound userId={userId} />
        ) : (
          <ErrorState
            title="Failed to fetch user data"
            message={errorMessage(user.error, 'Please check your connection and try again.')}
            onRetry={() => void user.refetch()}
          />
        ))}
      {user.data && <UserDetails user={user.data} isSelf={me.data?.id === user.data.id} />}
    </AdminPage>
  );
}
