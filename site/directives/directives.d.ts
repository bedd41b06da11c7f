/** Our hydration directives (registered in astro.config.mjs), typed for .astro templates. */
declare module "astro" {
  interface AstroClientDirectives {
    /** Hydrate when the first toast is raised. */
    "client:toast"?: boolean;
    /** Hydrate on idle when this storage key holds state, else when another island hydrates. */
    "client:companion"?: string;
    /** Hydrate on first use, or on idle when one of these comma-separated storage keys holds state. */
    "client:interaction"?: string;
  }
}
export {};
