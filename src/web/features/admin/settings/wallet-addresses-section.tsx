import { DEPOSIT_NETWORKS, type DepositNetwork } from '#shared/contracts/enums';
import { QR_IMAGE_CONTENT_TYPES, QR_IMAGE_TYPE_MESSAGE, SETTINGS_LIMITS, type AdminSettings } from '#shared/contracts/settings';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { FileUpload, type UploadRules } from '../components/file-upload.tsx';
import type { SettingsSectionProps } from './settings-form-values.ts';

const MEGABYTE = 1024 * 1024;

/** Each network's deposit address field, edited the same way. */
const ADDRESS_FIELDS: Record<DepositNetwork, { field: 'trc20Address' | 'erc20Address'; help: string }> = {
  TRC20: { field: 'trc20Address', help: 'A TRON address: starts with T, 34 characters. Leave empty to pause TRC20 deposits.' },
  ERC20: { field: 'erc20Address', help: '0x followed by 40 hexadecimal characters. Leave empty to pause ERC20 deposits.' },
};

const QR_RULES: UploadRules = {
  accept: QR_IMAGE_CONTENT_TYPES.join(','),
  maxBytes: SETTINGS_LIMITS.qrImageMaxBytes,
  tooLargeMessage: `The QR image must be at most ${SETTINGS_LIMITS.qrImageMaxBytes / MEGABYTE} MB`,
  checkType: (file) => ((QR_IMAGE_CONTENT_TYPES as readonly string[]).includes(file.type) ? undefined : QR_IMAGE_TYPE_MESSAGE),
};

/** The Wallet Addresses tab: each network's deposit address, then each network's QR image upload. */
export function WalletAddressesSection({
  register,
  errors,
  disabled,
  settings,
  onUploaded,
}: SettingsSectionProps & {
  settings: AdminSettings;
  onUploaded: (settingsVersion: { before: string; after: string }) => void;
}) {
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
      <fieldset disabled={disabled} className="flex flex-col gap-4">
        <legend className="sr-only">Wallet Addresses</legend>
        {DEPOSIT_NETWORKS.map((network) => {
          const { field, help } = ADDRESS_FIELDS[network];
          return (
            <FormField key={network} label={`${network} Wallet Address`} error={errors[field]?.message} help={help}>
              <Input className="font-mono text-sm" autoComplete="off" spellCheck={false} maxLength={SETTINGS_LIMITS.addressLength} {...register(field)} />
            </FormField>
          );
        })}
      </fieldset>
      {DEPOSIT_NETWORKS.map((network) => (
        <FileUpload
          key={network}
          onUploaded={onUploaded}
          label={`${network} QR code image`}
          help={`A picture of the saved ${network} address (PNG or JPEG). It is read on upload, and set aside when the address changes; until one is uploaded, customers see a QR code drawn from the address.`}
          target={{ kind: 'qr', network }}
          rules={QR_RULES}
          current={network === 'TRC20' ? settings.files.trc20Qr : settings.files.erc20Qr}
          kind="image"
        />
      ))}
    </div>
  );
}
