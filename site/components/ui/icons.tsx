/**
 * Icons drawn inline for islands that would otherwise import lucide-react only for them (its
 * runtime is 1.6 KB gzip): the product cards' Save toggle.
 * Paths are Lucide's (ISC licence), so they match the icons elsewhere.
 */
import type { ComponentProps } from "react";

type IconProps = ComponentProps<"svg">;

function Svg({ children, ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
      {children}
    </svg>
  );
}

export function HeartIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5" />
    </Svg>
  );
}
