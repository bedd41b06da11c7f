/**
 * Every icon the admin app draws. None of them is one the public islands use: a module shared
 * between the admin bundle and the public pages would be split into a chunk of its own, and the
 * public pages would load one more file. The star and the bin are drawn here for the same
 * reason (Lucide's Trash is the module behind the public Trash2).
 */
import type { ComponentProps } from "react";

export {
  Archive,
  ArrowUpRight,
  BadgePoundSterling,
  ChartColumn,
  CircleCheckBig,
  CirclePlus,
  CircleX,
  Database,
  Download,
  Ellipsis,
  FolderTree,
  Hammer,
  House,
  Import,
  Inbox,
  Info,
  KeyRound,
  LayoutDashboard,
  Link2,
  LoaderCircle,
  LockKeyhole,
  LogOut,
  Mails,
  Package,
  Play,
  RefreshCw,
  Rss,
  ScanSearch,
  Search,
  ShieldUser,
  SquarePen,
  Store,
  TicketPercent,
  TriangleAlert,
  Upload,
} from "lucide-react";

function Svg(props: ComponentProps<"svg">) {
  return <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props} />;
}

/** A bin with a lid (Lucide's trash shape). */
export function Trash(props: ComponentProps<"svg">) {
  return (
    <Svg {...props}>
      <path d="M10 11v6" />
      <path d="M14 11v6" />
      <path d="M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6" />
      <path d="M3 6h18" />
      <path d="M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2" />
    </Svg>
  );
}

/** A five-pointed star (Lucide's shape), outlined or filled through the class names. */
export function StarIcon(props: ComponentProps<"svg">) {
  return (
    <Svg {...props}>
      <path d="M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 .294.904l-3.736 3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 2.122 0 0 0-1.973 0L6.396 21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 2.122 0 0 0 1.597-1.16z" />
    </Svg>
  );
}
