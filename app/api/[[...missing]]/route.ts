// Any /api path no route serves: a JSON 404 in the API's error envelope, never the dashboard's HTML
// not-found page (an API client parses the answer; a script that mistypes a path gets a code).
// Not an operation of the document, so no defineRoute contract (tests/unit/openapi-coverage.test.ts).
import { unknownApiPath } from '@/lib/http/unknown-api-path';

export const dynamic = 'force-dynamic';

export const GET = unknownApiPath;
export const HEAD = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
export const OPTIONS = unknownApiPath;
