import { Link } from 'react-router';
import type { PublicSettings } from '#shared/contracts/settings';
import { Alert } from '../../components/ui/alert.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { usePublicSettings } from '../support/index.ts';
import { DEPOSIT_NETWORKS } from '#shared/contracts/enums';

/** What customers cannot do yet because a setting is empty: without an address they cannot deposit on that network, without the number they cannot reach support. */
function missingSetup(settings: PublicSettings): string[] {
  const missing = DEPOSIT_NETWORKS.filter((network) => settings.addresses[network] === '').map(
    (network) => `the ${network} deposit address (no ${network} deposits until then)`,
  );
  if (settings.whatsappSupportNumber === '') missing.push('the WhatsApp support number (the Support button stays hidden until then)');
  return missing;
}

/** For admins: the deposit addresses customers are shown, to check them at a glance, and what is not set up yet. */
export function AdminWalletCard() {
  const settings = usePublicSettings();
  const missing = settings.data ? missingSetup(settings.data) : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Admin Wallet Addresses</CardTitle>
        <CardDescription>Customers send their USDT deposits to these addresses. Change them in Admin Settings.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {missing.length > 0 && (
          <Alert variant="info" data-testid="setup-missing">
            Not set up yet: {missing.join('; ')}.{' '}
            <Link to="/admin/settings" className="font-medium underline">
              Open Admin Settings
            </Link>
          </Alert>
        )}
        {settings.isPending ? (
          <Spinner label="Loading wallet addresses" />
        ) : settings.isError ? (
          <p className="text-sm text-red-700">Failed to fetch admin wallet details</p>
        ) : (
          <Tabs defaultValue="TRC20">
            <TabsList aria-label="Network">
              {DEPOSIT_NETWORKS.map((network) => (
                <TabsTrigger key={network} value={network}>
                  {network}
                </TabsTrigger>
              ))}
            </TabsList>
            {DEPOSIT_NETWORKS.map((network) => {
              const address = settings.data.addresses[network];
              return (
                <TabsContent key={network} value={network}>
                  {address === '' ? (
                    <p className="text-sm text-slate-500">No {network} address is set up yet.</p>
                  ) : (
                    <div className="flex items-end gap-2">
                      <div className="min-w-0 flex-1">
                        <FormField label={`${network} Address`}>
                          <Input readOnly value={address} className="font-mono text-sm" />
                        </FormField>
                      </div>
                      <CopyButton text={address} label={`Copy ${network} address`} successMessage="Address copied to clipboard" />
                    </div>
                  )}
                </TabsContent>
              );
            })}
          </Tabs>
        )}
      </CardContent>
    </Card>
  );
}
