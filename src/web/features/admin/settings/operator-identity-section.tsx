import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { OPERATOR_IDENTITY_LIMITS } from '#shared/contracts/operator-identity';
import type { AdminSettings, UpdateSettingsRequest } from '#shared/contracts/settings';
import { EXAMPLE_PHONE } from '#shared/limits';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';

/**
 * The operator's identity and grievance officer in the Support tab (decision 051): shown in the footer, on
 * the terms and privacy pages and in the consent notice before KYC. An empty field is left out there.
 */

export function operatorIdentityFormValues(settings: AdminSettings) {
  return { operatorIdentity: { ...settings.operatorIdentity } };
}

export function OperatorIdentitySection({
  register,
  errors,
  disabled,
}: {
  register: UseFormRegister<UpdateSettingsRequest>;
  errors: FieldErrors<UpdateSettingsRequest>;
  disabled: boolean;
}) {
  const fieldErrors = errors.operatorIdentity;
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5" data-testid="operator-identity-settings">
      <legend className="text-base font-semibold">Operator and grievance officer</legend>
      <p className="text-sm text-slate-600">
        Shown in the footer, on the terms and privacy pages and in the privacy notice customers accept before KYC. Leave a field empty while it is not known; the pages then leave it out.
      </p>
      <FormField label="Operator legal name" error={fieldErrors?.legalName?.message}>
        <Input autoComplete="off" maxLength={OPERATOR_IDENTITY_LIMITS.legalNameLength} {...register('operatorIdentity.legalName')} />
      </FormField>
      <FormField label="Registered address" error={fieldErrors?.address?.message}>
        <Input autoComplete="off" maxLength={OPERATOR_IDENTITY_LIMITS.addressLength} {...register('operatorIdentity.address')} />
      </FormField>
      <FormField label="Registration (CIN or FIU-IND registration)" error={fieldErrors?.registration?.message}>
        <Input autoComplete="off" maxLength={OPERATOR_IDENTITY_LIMITS.registrationLength} {...register('operatorIdentity.registration')} />
      </FormField>
      <FormField label="Grievance officer name" error={fieldErrors?.grievanceOfficerName?.message}>
        <Input autoComplete="off" maxLength={OPERATOR_IDENTITY_LIMITS.officerNameLength} {...register('operatorIdentity.grievanceOfficerName')} />
      </FormField>
      <FormField label="Grievance officer e-mail" error={fieldErrors?.grievanceOfficerEmail?.message}>
        <Input type="email" autoComplete="off" maxLength={OPERATOR_IDENTITY_LIMITS.officerEmailLength} {...register('operatorIdentity.grievanceOfficerEmail')} />
      </FormField>
      <FormField label="Grievance officer phone" error={fieldErrors?.grievanceOfficerPhone?.message} help={`Start with + and the country code, for example ${EXAMPLE_PHONE}.`}>
        <Input type="tel" autoComplete="off" maxLength={40} {...register('operatorIdentity.grievanceOfficerPhone')} />
      </FormField>
    </fieldset>
  );
}
