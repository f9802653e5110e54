import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
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

type PanForm = z.input<typeof submitPanRequestSchema>;

export function PanForm() {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const form = useForm<PanForm, unknown, z.output<typeof submitPanRequestSchema>>({ resolver: zodResolver(submitPanRequestSchema), defaultValues: { pan: '' } });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const answer = await apiRequest('/api/kyc/pan', kycPanResponseSchema, { method: 'POST', body: values });
      queryClient.setQueryData(KYC_QUERY_KEY, answer.kyc);
      toast.success(answer.message);
      form.reset({ pan: '' });
      await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.me });
    } catch (error) {
      if (endOfSession(error)) return;
      form.setError('pan', { type: 'server', message: error instanceof ApiError ? (error.fields.pan ?? error.message) : 'Failed to save the PAN' });
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-3">
      <FormField label="PAN" error={errors.pan?.message} help="Your own PAN: 10 characters, the 4th is P, like ABCPE1234F.">
        <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={20} className="font-mono uppercase" {...form.register('pan')} />
      </FormField>
      <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? 'Checking...' : 'Verify PAN'}
      </Button>
    </form>
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
      toast.success(answer.message);
    } catch (error) {
      if (endOfSession(error)) return;
      form.setError('root', { type: 'server', message: error instanceof ApiError ? error.message : 'Failed to save the declaration' });
    }
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2 text-sm">
        <legend className="mb-1 font-medium">Where are you resident for tax?</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="india" {...form.register('residence')} /> India only
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" value="other" {...form.register('residence')} /> Also (or only) another country
        </label>
      </fieldset>
      {residence === 'other' && (
        <FormField label="Other country" error={errors.otherCountry?.message}>
          <Input maxLength={60} {...form.register('otherCountry')} />
        </FormField>
      )}
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-1" {...form.register('confirmed')} />
        <span>I declare that this is true, and I will tell you if it changes.</span>
      </label>
      {errors.confirmed?.message && <p className="text-sm text-red-700">{errors.confirmed.message}</p>}
      {errors.root?.message && <p className="text-sm text-red-700">{errors.root.message}</p>}
      <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? 'Saving...' : 'Declare tax residence'}
      </Button>
    </form>
  );
}
