import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { setPanRequestSchema, setPanResponseSchema, WITHDRAWAL_RULE_MESSAGES } from '#shared/contracts/withdrawal-rules';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

type PanForm = z.input<typeof setPanRequestSchema>;

/**
 * The customer's PAN, which withdrawals need while TDS (section 194S) applies.
 * Once saved it is shown masked; the customer can replace it.
 */
export function PanCard({ maskedPan }: { maskedPan: string | null }) {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [editing, setEditing] = useState(maskedPan === null);
  const form = useForm<PanForm, unknown, z.output<typeof setPanRequestSchema>>({ resolver: zodResolver(setPanRequestSchema), defaultValues: { pan: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await apiRequest('/api/me/pan', setPanResponseSchema, { method: 'PUT', body: values });
      toast.success(localizeMessage(answer.message || WITHDRAWAL_RULE_MESSAGES.panSaved));
      form.reset({ pan: '' });
      setEditing(false);
      // The profile shows the masked PAN, and the withdraw page no longer asks for it.
      await Promise.all([queryClient.invalidateQueries({ queryKey: QUERY_KEYS.me }), queryClient.invalidateQueries({ queryKey: QUERY_KEYS.wallet })]);
    } catch (error) {
      if (endOfSession(error)) return;
      form.setError('pan', { type: 'server', message: error instanceof ApiError ? (error.fields.pan ?? error.message) : t('profile.panFailed') });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.panTitle')}</CardTitle>
        <CardDescription>{t('profile.panDescription')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {maskedPan !== null && (
          <p className="flex items-center justify-between gap-3 text-sm">
            <span className="font-mono text-base font-semibold tracking-wider" data-testid="masked-pan">
              {maskedPan}
            </span>
            {!editing && (
              <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
                {t('profile.change')}
              </Button>
            )}
          </p>
        )}
        {editing && (
          <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-3">
            <FormField label={t('profile.panTitle')} error={errors.pan?.message} help={t('profile.panHelp')}>
              <Input
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={20}
                className="font-mono uppercase"
                {...form.register('pan')}
              />
            </FormField>
            <div className="flex gap-2">
              <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
                {isSubmitting ? t('profile.saving') : t('profile.savePan')}
              </Button>
              {maskedPan !== null && (
                <Button variant="outline" disabled={isSubmitting} onClick={() => setEditing(false)}>
                  {t('profile.cancel')}
                </Button>
              )}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
