// Sessions are identified by (server, token): one string key for maps over both.
export type SessionKey = string;

export const sessionKey = (server: string, token: string): SessionKey => `${server}\u0000${token}`;
