/**
 * The food page's "Similar food, cheaper per day": the food's cheaper equivalents (same type,
 * life stage, main protein and special diets) from GET /api/products/:slug/alternatives, ranked
 * by what a day costs the visitor's saved pet (the pet's body is sent, never its name), or per kg
 * when no pet of the food's species is saved. Mounted in the browser only (mount-alternatives.ts):
 * the list depends on the pet and on prices that change after the page was built.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { petQueryParams } from "../../../data/domain/food.ts";
import type { Species } from "../../../data/domain/feeding.ts";
import { formatPrice } from "../../../data/domain/display.ts";
import type { AlternativesResponse } from "../../../api/http/responses.ts";
import { fetchAlternatives } from "../../lib/api.ts";
import { $petProfile, loadPetProfile } from "../pet-profile/pet-profile.store.ts";

export interface AlternativesProps {
  slug: string;
  species: Species;
}

type State = { status: "loading" } | { status: "failed" } | { status: "ready"; answer: AlternativesResponse; petName: string | null };

const pounds = (value: number) => formatPrice(value);

export default function Alternatives({ slug, species }: AlternativesProps) {
  const pet = useStore($petProfile);
  const [state, setState] = useState<State>({ status: "loading" });
  useEffect(loadPetProfile, []);
  // A pet of another species is not this food's eater: the list goes per kg.
  const eater = pet && pet.species === species ? pet : null;
  const petKey = eater ? JSON.stringify(petQueryParams(eater)) : "";

  useEffect(() => {
    let current = true;
    setState({ status: "loading" });
    fetchAlternatives(slug, eater ? petQueryParams(eater) : {})
      .then((answer) => current && setState({ status: "ready", answer, petName: eater?.name ?? null }))
      .catch(() => current && setState({ status: "failed" }));
    return () => {
      current = false;
    };
    // petKey stands for the pet's body: a new name alone asks nothing new.
  }, [slug, petKey]);

  if (state.status === "failed") return <p className="mt-3 text-sm text-slate-600">Cheaper equivalents could not be loaded just now.</p>;
  if (state.status === "loading") return <p className="mt-3 text-sm text-slate-600" role="status">Looking for cheaper equivalents…</p>;
  const { answer, petName } = state;
  if (answer.basis === null || answer.food === null) return <p className="mt-3 text-sm text-slate-600">This food is not on sale at a current price, so there is nothing to compare it with.</p>;
  const perDay = answer.basis === "day";
  const unit = perDay ? "a day" : "per kg";
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-600" data-testid="alternatives-basis">
        {perDay ? `For ${petName ?? "your pet"}: this food costs ${pounds(answer.cost!)} a day.` : `This food costs ${pounds(answer.cost!)} per kg.`}{" "}
        Equivalents are {answer.food.facts.join(" · ")}, in stock at a current price.
      </p>
      {answer.alternatives.length === 0 ? (
        <p className="mt-3 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900" data-testid="alternatives-none">
          No equivalent food costs less {unit}: this is the best value of its kind we compare.
        </p>
      ) : (
        <ol className="mt-4 grid gap-3 sm:grid-cols-2" aria-label="Cheaper equivalents, cheapest first">
          {answer.alternatives.map((alternative) => (
            <li key={alternative.product.id} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3" data-testid="alternative">
              <img src={alternative.product.image} alt="" width="64" height="64" loading="lazy" className="size-16 shrink-0 object-contain" />
              <div className="min-w-0">
                <a href={alternative.product.url} className="line-clamp-2 text-sm font-semibold text-slate-900 hover:text-brand-700 hover:underline">
                  {alternative.product.name}
                </a>
                <p className="mt-1 text-sm text-slate-800">
                  <strong className="font-bold text-emerald-800">
                    {pounds(alternative.cost)} {unit}
                  </strong>{" "}
                  <span className="text-slate-600">
                    (save {pounds(alternative.saving)} {unit})
                  </span>
                </p>
                <p className="text-xs text-slate-600">
                  {alternative.bestPrice !== null && `${pounds(alternative.bestPrice)}${alternative.retailer ? ` at ${alternative.retailer}` : ""}. `}
                  {alternative.reason}.
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
      {!perDay && (
        <p className="mt-3 text-xs text-slate-600">
          {petName === null
            ? "Save your pet in the Feeding Cost panel to rank these by what a day costs for them."
            : `What a day of this food costs ${petName} cannot be worked out (its energy or feeding guide is not known), so these are ranked per kg.`}
        </p>
      )}
    </div>
  );
}
