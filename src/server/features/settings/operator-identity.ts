import type { OperatorIdentity } from '#shared/contracts/operator-identity';
import type { SettingsRow } from './settings-row.ts';

/** The settings columns of the operator's identity and its grievance officer (decision 051). */
export type OperatorIdentityColumns = Pick<
  SettingsRow,
  'operatorLegalName' | 'operatorAddress' | 'operatorRegistration' | 'grievanceOfficerName' | 'grievanceOfficerEmail' | 'grievanceOfficerPhone'
>;

/** The columns a save changes; a request without the section keeps them. */
export function desiredOperatorIdentity(input: { operatorIdentity?: OperatorIdentity | undefined }): Partial<OperatorIdentityColumns> {
  const identity = input.operatorIdentity;
  if (!identity) return {};
  return {
    operatorLegalName: identity.legalName,
    operatorAddress: identity.address,
    operatorRegistration: identity.registration,
    grievanceOfficerName: identity.grievanceOfficerName,
    grievanceOfficerEmail: identity.grievanceOfficerEmail,
    grievanceOfficerPhone: identity.grievanceOfficerPhone,
  };
}

export function operatorIdentityOf(row: OperatorIdentityColumns): OperatorIdentity {
  return {
    legalName: row.operatorLegalName,
    address: row.operatorAddress,
    registration: row.operatorRegistration,
    grievanceOfficerName: row.grievanceOfficerName,
    grievanceOfficerEmail: row.grievanceOfficerEmail,
    grievanceOfficerPhone: row.grievanceOfficerPhone,
  };
}

/** The identity as the settings history and the audit log keep it: one flat entry per value. */
export function operatorIdentitySnapshot(row: OperatorIdentityColumns): Record<string, string> {
  return {
    operatorLegalName: row.operatorLegalName,
    operatorAddress: row.operatorAddress,
    operatorRegistration: row.operatorRegistration,
    grievanceOfficerName: row.grievanceOfficerName,
    grievanceOfficerEmail: row.grievanceOfficerEmail,
    grievanceOfficerPhone: row.grievanceOfficerPhone,
  };
}
