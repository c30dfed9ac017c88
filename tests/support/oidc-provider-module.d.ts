// oidc-provider ships no types; the tests use a handful of its calls (tests/support/oidc-provider.ts).
declare module 'oidc-provider';
