import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { kycPanResponseSchema, kycTaxResidenceResponseSchema, submitPanRequestSchema, taxResidenceRequestSchema } from '#shared/contracts/kyc';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { KYC_QUERY_KEY } from './api.ts';
import { uploadPanCardPhoto } from './kyc-photo-upload.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

type PanForm = z.input<typeof submitPanRequestSchema>;

export function PanForm() {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const form = useForm<PanForm, unknown, z.output<typeof submitPanRequestSchema>>({
    resolver: zodResolver(submitPanRequestSchema),
    defaultValues: { pan: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await apiRequest('/api/kyc/pan', kycPanResponseSchema, { method: 'POST', body: values });
      queryClient.setQueryData(KYC_QUERY_KEY, answer.kyc);
      toast.success(localizeMessage(answer.message));
      form.reset({ pan: '' });
      await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.me });
    } catch (error) {
      if (endOfSession(error)) return;
      form.setError('pan', { type: 'server', message: error instanceof ApiError ? (error.fields.pan ?? error.message) : t('kyc.panFailed') });
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-3">
      <FormField label={t('kyc.panLabel')} error={errors.pan?.message} help={t('kyc.panHelp')}>
        <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={20} className="font-mono uppercase" {...form.register('pan')} />
      </FormField>
      <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? t('kyc.checking') : t('kyc.verifyPan')}
      </Button>
    </form>
  );
}

/**
 * The photo of the PAN card, while a person checks the PAN without a provider's answer (decision 066): sent as
 * soon as it is chosen (the phone offers its camera or its gallery); a refusal is told beside the field.
 */
export function PanCardPhoto({ requestReason }: { requestReason: string | null }) {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [state, setState] = useState<{ uploading: boolean; error?: string }>({ uploading: false });
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    setState({ uploading: true });
    try {
      const answer = await uploadPanCardPhoto(file, file.name);
      queryClient.setQueryData(KYC_QUERY_KEY, answer.kyc);
      toast.success(localizeMessage(answer.message));
      setState({ uploading: false });
    } catch (error) {
      if (endOfSession(error)) return;
      const message = error instanceof ApiError ? (error.fields.file ?? error.message) : t('kyc.panCardFailed');
      setState({ uploading: false, error: localizeMessage(message) });
    }
  };
  return (
    <div className="flex flex-col gap-2" data-testid="kyc-pan-card">
      {requestReason !== null && <p className="text-sm text-amber-800">{t('kyc.panCardAskedAgain', { reason: requestReason })}</p>}
      <FormField label={t('kyc.panCardLabel')} error={state.error} help={state.uploading ? t('kyc.l2Uploading') : t('kyc.panCardHelp')}>
        <input
          type="file"
          accept="image/jpeg,image/png,image/heic,image/heif"
          className="text-sm"
          disabled={state.uploading}
          data-testid="kyc-photo-pan_card"
          onChange={(event) => void choose(event)}
        />
      </FormField>
    </div>
  );
}

type TaxResidenceForm = z.input<typeof taxResidenceRequestSchema>;

export function TaxResidenceForm() {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const form = useForm<TaxResidenceForm, unknown, z.output<typeof taxResidenceRequestSchema>>({
    resolver: zodResolver(taxResidenceRequestSchema),
    defaultValues: { residence: 'india', otherCountry: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const residence = useWatch({ control: form.control, name: 'residence' });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await apiRequest('/api/kyc/tax-residence', kycTaxResidenceResponseSchema, { method: 'POST', body: values });
      queryClient.setQueryData(KYC_QUERY_KEY, answer.kyc);
      toast.success(localizeMessage(answer.message));
    } catch (error) {
      if (endOfSession(error)) return;
      form.setError('root', { type: 'server', message: error instanceof ApiError ? error.message : t('kyc.declarationFailed') });
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1 font-medium">{t('kyc.residenceQuestion')}</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="india" {...form.register('residence')} /> {t('kyc.indiaOnly')}
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" value="other" {...form.register('residence')} /> {t('kyc.otherCountryToo')}
        </label>
      </fieldset>
      {residence === 'other' && (
        <FormField label={t('kyc.otherCountry')} error={errors.otherCountry?.message}>
          <Input maxLength={60} {...form.register('otherCountry')} />
        </FormField>
      )}
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-1" {...form.register('confirmed')} />
        <span>{t('kyc.declare')}</span>
      </label>
      {errors.confirmed?.message && <p className="text-sm text-red-700">{localizeMessage(errors.confirmed.message)}</p>}
      {errors.root?.message && <p className="text-sm text-red-700">{localizeMessage(errors.root.message)}</p>}
      <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? t('kyc.saving') : t('kyc.declareButton')}
      </Button>
    </form>
  );
}
