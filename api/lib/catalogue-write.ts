/** Runs a catalogue write for a route: refusals become 4xx errors; a committed change is signalled. */
import { HTTPError } from "h3";
import type { AdminContext } from "../context.ts";
import { WriteRefused, type Written } from "../../data/db/catalogue-writer/transaction.ts";

export function commitWrite<T>(admin: AdminContext, write: () => Written<T>): T {
  let written: Written<T>;
  try {
    written = write();
  } catch (error) {
    if (error instanceof WriteRefused) throw new HTTPError({ status: error.status, message: error.message });
    throw error;
  }
  const { change } = written;
  if (change.siteWide || change.productIds.length > 0 || change.categoryIds.length > 0) admin.catalogueChanged(change);
  return written.value;
}
