/**
 * Zod in the browser without compiled parsers. Zod 4 compiles object parsers with `new Function`,
 * and each z.object it constructs first tries whether it may: under the pages' Content Security
 * Policy (no 'unsafe-eval') that try is reported as a violation. Jitless, it never tries. Import
 * this first, before any module that constructs a schema (data/domain/feeding.ts,
 * compare-page.ts), in every island that bundles one; the server keeps compiled parsers.
 */
import { z } from "zod";

z.config({ jitless: true });
