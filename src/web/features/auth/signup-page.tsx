import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { signupFormSchema } from '#shared/contracts/auth';
import { sanitizePinInput } from '#shared/contracts/pin';
import { EXAMPLE_PHONE } from '#shared/limits';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { ApiError } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';
import { signup } from './api.ts';
import { currentLanguage, translate as t } from '../../lib/i18n/i18n.ts';
import { AuthCard } from './auth-card.tsx';
import { SignupLocationAsk } from '../contact-verification/index.ts';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';

type SignupForm = z.input<typeof signupFormSchema>;
const FIELDS = ['fullName', 'email', 'phone', 'password', 'confirmPassword', 'pin', 'referralCode'] as const;

/** The spec's mapping of sign-up failures to what the customer reads. */
export function signupErrorText(message: string): string {
  const lower = message.toLowerCase();
  if (lower.includes('email already in use') || lower.includes('already registered')) return t('auth.emailRegistered');
  if (lower.includes('database error')) return `Database error: Please ensure your phone number follows the format +COUNTRYCODENUMBER (e.g., ${EXAMPLE_PHONE})`;
  if (lower.includes('phone')) return `Phone number error: ${message}`;
  return message || t('auth.signupError');
}

/** The sign-up form's state and its submission: the account is created and the customer goes to the dashboard. */
function useSignupForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const [submitError, setSubmitError] = useState<string>();
  const [geolocation, setGeolocation] = useState<SignupGeolocation>();
  const form = useForm<SignupForm>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { fullName: '', email: '', phone: '', password: '', confirmPassword: '', pin: '', referralCode: searchParams.get('ref') ?? '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(undefined);
    try {
      const { confirmPassword: _confirmation, ...request } = values;
      const { user } = await signup({ ...request, referralCode: request.referralCode || undefined, geolocation, language: currentLanguage() });
      queryClient.setQueryData(ME_QUERY_KEY, user);
      toast.success(t('auth.accountCreated'), { description: t('auth.accountCreatedDescription'), duration: 5000 });
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      // Said once (decision 055): a refusal about a field (an e-mail already registered) at that field, anything else in the banner.
      if (!showServerFieldErrors(form.setError, FIELDS, error).fullyShownAtFields)
        setSubmitError(signupErrorText(error instanceof ApiError ? error.message : ''));
    }
  });

  return { form, onSubmit, submitError, geolocation, setGeolocation };
}

export default function SignupPage() {
  const { form, onSubmit, submitError, geolocation, setGeolocation } = useSignupForm();
  return (
    <AuthCard
      title={t('auth.createYourAccount')}
      subtitle={t('auth.joinToStart')}
      footer={
        <>
          {t('auth.haveAccount')}{' '}
          <Link className="font-medium text-brand-700 hover:underline" to="/login">
            {t('auth.logIn')}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {submitError && <Alert variant="destructive">{submitError}</Alert>}
        <SignupFields form={form} />
        <SignupLocationAsk value={geolocation} onChange={setGeolocation} />
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('auth.processing') : t('auth.createAccount')}
        </Button>
      </form>
    </AuthCard>
  );
}

/** The sign-up fields, each with its own error; an error goes as soon as its field is edited. */
function SignupFields({ form }: { form: UseFormReturn<SignupForm> }) {
  const { errors } = form.formState;
  const register = (name: (typeof FIELDS)[number]) =>
    form.register(name, {
      onChange: () => {
        if (form.formState.errors[name]) form.clearErrors(name);
      },
    });
  const pin = useWatch({ control: form.control, name: 'pin' }) ?? '';
  return (
    <>
      <FormField label={t('auth.fullName')} error={errors.fullName?.message}>
        <Input autoComplete="name" maxLength={100} {...register('fullName')} />
      </FormField>
      <FormField label={t('auth.email')} error={errors.email?.message}>
        <Input type="email" autoComplete="email" maxLength={254} {...register('email')} />
      </FormField>
      <FormField label={t('auth.phone')} error={errors.phone?.message} help={t('auth.phoneHelp', { example: EXAMPLE_PHONE })}>
        <Input type="tel" autoComplete="tel" placeholder={EXAMPLE_PHONE} maxLength={24} {...register('phone')} />
      </FormField>
      <FormField label={t('auth.password')} error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" maxLength={128} {...register('password')} />
      </FormField>
      <FormField label={t('auth.confirmPassword')} error={errors.confirmPassword?.message}>
        <Input type="password" autoComplete="new-password" maxLength={128} {...register('confirmPassword')} />
      </FormField>
      <FormField label={t('auth.transactionPin')} error={errors.pin?.message}>
        <Input
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          value={pin}
          onChange={(event) => {
            form.setValue('pin', sanitizePinInput(event.target.value));
            if (errors.pin) form.clearErrors('pin');
          }}
        />
      </FormField>
      <FormField label={t('auth.referralCodeOptional')} error={errors.referralCode?.message}>
        <Input autoComplete="off" maxLength={10} className="uppercase" {...register('referralCode')} />
      </FormField>
    </>
  );
}
