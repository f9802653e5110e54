import { useQuery } from '@tanstack/react-query';
import { checkHealth } from '../../lib/health.ts';

/** Asks the API whether it and its database answer, before a PIN form is shown. */
export function useConnectionCheck() {
  return useQuery({ queryKey: ['health'], queryFn: checkHealth, retry: false, staleTime: 0, gcTime: 0 });
}
