// The audit log (admin only): who changed what, filtered, paged and exported.
import { z } from 'zod';
import { routeContract } from '../route-contract';
import { ZAuditEntry, ZAuditListQuery, ZAuditListResponse } from '../audit';

export const auditListRoute = routeContract({
  method: 'GET',
  path: '/api/v1/audit',
  operationId: 'listAuditEntries',
  tags: ['audit'],
  auth: 'admin',
  summary: 'Audit log entries (admin), newest first, keyset-paginated; format=csv|ndjson exports the whole filtered set',
  query: ZAuditListQuery,
  responses: {
    200: {
      description: 'one page (or, with format=, the whole filtered set)',
      content: { 'application/json': ZAuditListResponse, 'text/csv': z.string(), 'application/x-ndjson': ZAuditEntry },
    },
  },
});
