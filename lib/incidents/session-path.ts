// A session's page in this dashboard (where an incident links its sessions).
export const sessionPath = (server: string, token: string) =>
  `/servers/${encodeURIComponent(server)}/sessions/${encodeURIComponent(token)}`;
