'use client';
// A view that depends on who is signed in (an admin's actions, an admins-only page): a loading line
// until the operator is known, the failure box of any read when that fails, then the view for them.
import type { ReactNode } from 'react';
import { ErrorState, Loading } from '@/components/states';
import type { TAuthSessionResponse } from '@/lib/contract/api/operators';
import { useMe } from '@/lib/ui/queries';

export function SignedInOperator({ children }: { children: (operator: TAuthSessionResponse['operator']) => ReactNode }) {
  const me = useMe();
  if (me.isPending) return <Loading />;
  if (me.isError)
    return (
      <div className="panel">
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      </div>
    );
  return children(me.data.operator);
}
