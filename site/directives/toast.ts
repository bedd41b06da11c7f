/**
 * `client:toast`: hydrates the Toaster island when the first toast is raised (the toast store
 * dispatches "pawprice:toast" on window after storing it, so the island shows it as it
 * hydrates). Until then the page loads none of the toast UI or React; once the page is idle the
 * island's modules are preloaded, so the first toast does not wait on the network.
 * The event name is written out here: this file is inlined in every page and imports nothing.
 */
import type { ClientDirective } from "astro";

const toastDirective: ClientDirective = (load, _options, el) => {
  const hydrate = async () => {
    window.removeEventListener("pawprice:toast", hydrate);
    await (await load())();
  };
  window.addEventListener("pawprice:toast", hydrate);

  const preload = () => {
    for (const attribute of ["renderer-url", "component-url"]) {
      const href = el.getAttribute(attribute);
      if (!href || document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
  };
  if ("requestIdleCallback" in window) window.requestIdleCallback(preload);
  else setTimeout(preload, 200);
};

export default toastDirective;
