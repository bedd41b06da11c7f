/**
 * What the admin may send for a feed source, checked once at the API's edge. The rules beside
 * each field; a schedule is a five-field cron pattern in UK time that croner can plan, running at
 * most every 15 minutes (an import reads the whole feed).
 */
import { Cron } from "croner";
import { z } from "zod";
import { catalogueTextLimits } from "./limits.ts";
import { feedLayoutChoices, feedSourceKinds, mappableFields, missingMappedFields, type ColumnMapping, type FeedLayoutChoice } from "./feed-sources.ts";

export const feedScheduleTimezone = "Europe/London";
/** The shortest time between two scheduled runs of one source. */
export const minScheduleGapMinutes = 15;


/**
 * Why a cron pattern cannot be a feed schedule, or null when it can.
 * @example scheduleProblem("15 3 * * *") // null
 * @example scheduleProblem("* * * * *") // "schedule must not run more often than every 15 minutes"
 */
export function scheduleProblem(pattern: string): string | null {
  if (pattern.trim().split(/\s+/).length !== 5) return "schedule must be a cron pattern of five fields (minute hour day month weekday), e.g. 15 3 * * *";
  let runs: Date[];
  try {
    runs = new Cron(pattern, { paused: true, timezone: feedScheduleTimezone }).nextRuns(6);
  } catch (error) {
    return `schedule is not a valid cron pattern: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (runs.length === 0) return "schedule never runs";
  for (let i = 1; i < runs.length; i++) {
    if (runs[i]!.getTime() - runs[i - 1]!.getTime() < minScheduleGapMinutes * 60_000) {
      return `schedule must not run more often than every ${minScheduleGapMinutes} minutes`;
    }
  }
  return null;
}

const name = z
  .string({ error: "name is required" })
  .trim()
  .min(1, "name is required")
  .max(catalogueTextLimits.feedSourceName, `name must be at most ${catalogueTextLimits.feedSourceName} characters`);
const url = z
  .string({ error: "url must be text" })
  .trim()
  .max(2000, "url must be at most 2000 characters")
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return (parsed.protocol === "https:" || parsed.protocol === "http:") && !parsed.username && !parsed.password;
    } catch {
      return false;
    }
  }, "url must be an http or https URL without a user name or password");
const layout = z.enum(feedLayoutChoices as [FeedLayoutChoice, ...FeedLayoutChoice[]], { error: `layout must be one of ${feedLayoutChoices.join(", ")}` });
const column = z.string().trim().min(1, "a mapped column name must not be blank").max(200, "a mapped column name must be at most 200 characters");
const mapping = z
  .record(z.string(), column.optional(), { error: "mapping must be an object of field: column name" })
  .refine((value) => Object.keys(value).every((key) => (mappableFields as string[]).includes(key)), `mapping may only name the fields ${mappableFields.join(", ")}`)
  .transform((value) => Object.fromEntries(Object.entries(value).filter(([, columnName]) => columnName !== undefined)) as ColumnMapping);
const retailerKey = z
  .string({ error: "retailerKey must be a retailer's key or null" })
  .trim()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "retailerKey must be a retailer's key (a-z, 0-9 and hyphens)")
  .max(60, "retailerKey is too long");
const schedule = z
  .string({ error: "schedule must be a cron pattern or null" })
  .trim()
  .max(catalogueTextLimits.feedSchedule, "schedule is too long")
  .superRefine((value, ctx) => {
    const problem = value === "" ? null : scheduleProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => (value === "" ? null : value));

/** The fields an update may change; left out, a field keeps its stored value (the URL especially: the admin never sees it whole). */
export const feedSourceChanges = z
  .object({
    name: name.optional(),
    url: url.optional(),
    layout: layout.optional(),
    mapping: mapping.nullable().optional(),
    retailerKey: retailerKey.nullable().optional(),
    createProducts: z.boolean({ error: "createProducts must be true or false" }).optional(),
    schedule: schedule.nullable().optional(),
    enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
  })
  .strict();
export type FeedSourceChanges = z.infer<typeof feedSourceChanges>;

/** A new source: a URL source needs its URL; a file source gets its file by upload afterwards. */
export const feedSourceInput = feedSourceChanges
  .extend({ name, kind: z.enum(feedSourceKinds, { error: "kind must be url or file" }) })
  .strict()
  .superRefine((value, ctx) => {
    if (value.kind === "url" && value.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "url is required for a url source" });
    if (value.kind === "file" && value.url !== undefined)
      ctx.addIssue({ code: "custom", path: ["url"], message: "url must be left out for a file source (upload its file instead)" });
  });
export type FeedSourceInput = z.infer<typeof feedSourceInput>;

/** Why a source's layout and mapping cannot be read together, or null. */
export function mappingProblem(layoutChoice: string, columnMapping: ColumnMapping | null): string | null {
  if (layoutChoice !== "mapped") return null;
  const missing = missingMappedFields(columnMapping);
  return missing.length === 0 ? null : `mapping must name a column for ${missing.join(", ")} (the mapped layout needs them)`;
}
