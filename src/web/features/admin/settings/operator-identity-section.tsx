import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { OPERATOR_IDENTITY_LIMITS, type OperatorIdentity } from '#shared/contracts/operator-identity';
import type { AdminSettings, UpdateSettingsRequest } from '#shared/contracts/settings';
import { EXAMPLE_PHONE } from '#shared/limits';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';

/**
 * The operator's identity and grievance officer in the Support tab (decision 051): shown in the footer, on
 * the terms and privacy pages and in the consent notice before KYC. An empty field is left out there.
 */

const FIELDS: { name: keyof OperatorIdentity; label: string; maxLength: number; type: 'text' | 'email' | 'tel'; help?: string }[] = [
  { name: 'legalName', label: 'Operator legal name', maxLength: OPERATOR_IDENTITY_LIMITS.legalNameLength, type: 'text' },
  { name: 'address', label: 'Registered address', maxLength: OPERATOR_IDENTITY_LIMITS.addressLength, type: 'text' },
  { name: 'registration', label: 'Registration (CIN or FIU-IND registration)', maxLength: OPERATOR_IDENTITY_LIMITS.registrationLength, type: 'text' },
  { name: 'grievanceOfficerName', label: 'Grievance officer name', maxLength: OPERATOR_IDENTITY_LIMITS.officerNameLength, type: 'text' },
  { name: 'grievanceOfficerEmail', label: 'Grievance officer e-mail', maxLength: OPERATOR_IDENTITY_LIMITS.officerEmailLength, type: 'email' },
  {
    name: 'grievanceOfficerPhone',
    label: 'Grievance officer phone',
    maxLength: OPERATOR_IDENTITY_LIMITS.officerPhoneInputLength,
    type: 'tel',
    help: `Start with + and the country code, for example ${EXAMPLE_PHONE}.`,
  },
];

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
        Shown in the footer, on the terms and privacy pages and in the privacy notice customers accept before KYC. Leave a field empty while it is not known;
        the pages then leave it out.
      </p>
      {FIELDS.map(({ name, label, maxLength, type, help }) => (
        <FormField key={name} label={label} error={fieldErrors?.[name]?.message} help={help}>
          <Input type={type} autoComplete="off" maxLength={maxLength} {...register(`operatorIdentity.${name}`)} />
        </FormField>
      ))}
    </fieldset>
  );
}
