// Admin API for registered MCP servers and their webhook secrets.
import { z } from 'zod';
import { SERVER_NAME } from '@/lib/contract/server-name';

export const ZServerName = z.string().regex(SERVER_NAME, 'must be 1-64 characters of a-z, 0-9 and "-"');

export const ZAddServerRequest = z.object({ name: ZServerName });
export const ZRotateSecretRequest = z.object({
  graceSeconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 24 * 3600)
    .optional(),
});

export const ZServerSecretInfo = z.object({ id: z.string(), createdAt: z.string(), expiresAt: z.string().nullable() });
export const ZRegisteredServer = z.object({ name: z.string(), createdAt: z.string(), secrets: z.array(ZServerSecretInfo) });
export const ZRegisteredServersResponse = z.object({ servers: z.array(ZRegisteredServer) });
/** The secret is returned once, at creation or rotation, and never again. */
export const ZServerSecretResponse = z.object({ name: z.string(), secret: z.string(), previousValidUntil: z.string().optional() });
