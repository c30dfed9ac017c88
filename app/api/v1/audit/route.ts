import { auditListRoute } from '@/lib/contract/api/routes/audit';
import { auditExportResponse, auditPage } from '@/lib/queries/audit-log';
import { defineRoute } from '@/lib/route/define-route';
import { refuseOtherMethods } from '@/lib/route/method-not-allowed';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(auditListRoute, ({ db, query }) =>
  query.format ? auditExportResponse(db, query, query.format, Date.now()) : auditPage(db, query, Date.now()),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods(auditListRoute);
