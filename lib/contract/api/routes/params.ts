// Path parameters several routes share.
import { z } from 'zod';
import { zText } from '../route-contract';

export const ZServerParam = z.object({ server: zText(128).min(1) });
export const ZIdParam = z.object({ id: zText(128).min(1) });
