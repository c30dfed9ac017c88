import { signOut } from '@/lib/auth/sign-out';
import { logoutRoute } from '@/lib/contract/api/routes/access';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(logoutRoute, ({ db, request }) => signOut(db, request));

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods(logoutRoute);
