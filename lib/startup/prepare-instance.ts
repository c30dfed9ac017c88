// Work done once before serving: things that need the database migrated first.
export async function prepareInstance(): Promise<void> {
  // Filled by the ingest (server provisioning) and auth (bootstrap admin token) modules.
}
