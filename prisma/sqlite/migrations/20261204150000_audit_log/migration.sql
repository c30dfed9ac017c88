-- Issue 28, the audit log (lib/store/audit-log.ts): who changed what, with the entity before and after
-- as JSON text, secrets redacted before they are written (lib/store/audit-redaction.ts). Each entry is
-- written in the transaction of the change it describes. "at" is epoch ms, like the other hot tables;
-- "id" is time-ordered, so ("at", "id") pages in a stable order. Pruned by DOORWATCH_AUDIT_RETENTION_DAYS.
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" BIGINT NOT NULL,
    "actorName" TEXT NOT NULL,
    "actorKind" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "entityType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "requestId" TEXT
);
CREATE INDEX "AuditEntry_at_id_idx" ON "AuditEntry"("at", "id");
CREATE INDEX "AuditEntry_entityType_entityId_at_idx" ON "AuditEntry"("entityType", "entityId", "at");
