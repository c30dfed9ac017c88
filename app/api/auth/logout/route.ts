import { logout } from '@/lib/auth/login';
import { handleRoute } from '@/lib/http/handle-route';

export const dynamic = 'force-dynamic';

export const POST = handleRoute(async (request: Request) => logout(request));
