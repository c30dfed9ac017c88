-- What senders' reporters lost before their events reached Doorwatch, per reporter instance.
CREATE TABLE "ReporterStatus" (
    "server" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "dropped" BIGINT NOT NULL DEFAULT 0,
    "failed" BIGINT NOT NULL DEFAULT 0,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL,
    CONSTRAINT "ReporterStatus_pkey" PRIMARY KEY ("server","instance")
);
