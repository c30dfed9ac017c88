import type { TAuthSessionResponse } from '@/lib/contract/api/operators';
import { meRoute } from '@/lib/contract/api/routes';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(meRoute, ({ operator }): TAuthSessionResponse => ({
  operator: { id: operator.id, name: operator.name, role: operator.role },
  expiresAt: operator.expiresAt === null ? null : new Date(operator.expiresAt).toISOString(),
}));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(meRoute);
