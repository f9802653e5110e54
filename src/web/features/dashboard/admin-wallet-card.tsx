import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { CopyButton } from '../../components/ui/copy-button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { usePublicSettings } from '../support/public-settings.ts';
import { DEPOSIT_NETWORKS } from '#shared/contracts/enums';

/** For admins: the deposit addresses customers are shown, to check them at a glance. */
export function AdminWalletCard() {
  const settings = usePublicSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Admin Wallet Addresses</CardTitle>
        <CardDescription>Customers send their USDT deposits to these addresses. Change them in Admin Settings.</CardDescription>
      </CardHeader>
      <CardContent>
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
