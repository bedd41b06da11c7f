/**
 * The product page's "Feeding cost" panel for a complete dog or cat food: the visitor's pet
 * (kept in this browser only, through the pet-profile store), the grams a day it eats of this
 * food and how that figure was reached, what a day and a month cost at each in-stock offer to
 * the door, and the cheapest way to buy a month of it. Mounted in the browser only
 * (mount-feeding-cost.ts); its first render shows no pet, as the page's static panel does, and the
 * store is read in an effect.
 */
// First: the feeding schemas must be constructed with Zod jitless (CSP without eval).
import "../../lib/zod-jitless.ts";
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import {
  activities,
  cheapestWayToFeed,
  dailyGrams,
  describeMethod,
  feedingCost,
  type Activity,
  type FeedingCost as PackCost,
  type FeedingGuide,
  type FoodFacts,
  type LifeStage,
  type PetProfile,
  maxPetNameLength,
  type Species,
} from "../../../data/domain/feeding.ts";
import { formatPence, type Pence } from "../../../data/domain/money.ts";
import { $petProfile, forgetPetProfile, loadPetProfile, savePetProfile } from "../pet-profile/pet-profile.store.ts";

export interface FeedingOffer {
  retailer: string;
  /** Price to the door (item plus delivery) for one pack. */
  totalPence: Pence;
  /** The same on the retailer's repeat-delivery scheme, when it has one. */
  repeatTotalPence: Pence | null;
}

/** Another size of the same food (its own page), at its best price to the door. */
export interface FeedingSize {
  label: string;
  packGrams: number;
  retailer: string;
  totalPence: Pence;
  href: string;
}

export interface FeedingCostProps {
  /** The species the food is for. */
  species: Species;
  /** Grams in one pack, and the pack's label ("12kg", "40 x 100g"). */
  packGrams: number;
  packLabel: string;
  kcalPerKg: number | null;
  guideRows: FeedingGuide["rows"] | null;
  /** In-stock offers, cheapest first. */
  offers: FeedingOffer[];
  /** The food's other sizes that are in stock somewhere, smallest first. */
  otherSizes: FeedingSize[];
}

const plural: Readonly<Record<Species, string>> = { dog: "dogs", cat: "cats" };
const stageLabels: Readonly<Record<LifeStage, string>> = { puppy: "Puppy", kitten: "Kitten", adult: "Adult", senior: "Senior" };
const stagesOf: Readonly<Record<Species, readonly LifeStage[]>> = { dog: ["puppy", "adult", "senior"], cat: ["kitten", "adult", "senior"] };
const activityLabels: Readonly<Record<Activity, string>> = { "less-active": "Less active", normal: "Normal", active: "Active" };

const inputClass =
  "w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-600 focus:outline-none focus-visible:outline-2";
const labelClass = "mb-1 block text-xs font-semibold text-slate-700";

interface Draft {
  name: string;
  species: Species;
  weightKg: string;
  lifeStage: LifeStage;
  activity: Activity;
  neutered: boolean;
}

function draftFrom(pet: PetProfile | null, species: Species): Draft {
  return pet
    ? { name: pet.name, species: pet.species, weightKg: String(pet.weightKg), lifeStage: pet.lifeStage, activity: pet.activity, neutered: pet.neutered }
    : { name: "", species, weightKg: "", lifeStage: "adult", activity: "normal", neutered: false };
}

function PetForm(props: { initial: Draft; onSaved: () => void; onCancel: (() => void) | null }) {
  const [draft, setDraft] = useState(props.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((before) => ({ ...before, [key]: value }));
  const changeSpecies = (species: Species) =>
    // A puppy that becomes a cat becomes a kitten, and the other way round.
    setDraft((before) => ({ ...before, species, lifeStage: before.lifeStage === "puppy" || before.lifeStage === "kitten" ? stagesOf[species][0]! : before.lifeStage }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const weight = draft.weightKg.trim() === "" ? Number.NaN : Number(draft.weightKg.replace(",", "."));
    const result = savePetProfile({ ...draft, weightKg: Number.isFinite(weight) ? Math.round(weight * 100) / 100 : undefined });
    if (result.ok) {
      setErrors({});
      props.onSaved();
      return;
    }
    const byField: Record<string, string> = {};
    for (const issue of result.issues) {
      const field = issue.path || "form";
      byField[field] ??= field === "weightKg" && !Number.isFinite(weight) ? "Enter a weight in kg" : issue.message;
    }
    setErrors(byField);
  };

  const error = (field: string) =>
    errors[field] ? (
      <p id={`pet-${field}-error`} className="mt-1 text-xs font-medium text-red-700">
        {errors[field]}
      </p>
    ) : null;
  const described = (field: string) => (errors[field] ? { "aria-invalid": true, "aria-describedby": `pet-${field}-error` } : {});

  return (
    <form onSubmit={submit} aria-label="Your pet" className="mt-4 grid grid-cols-2 gap-3 md:grid-cols-3" noValidate>
      <div className="col-span-2 md:col-span-1">
        <label htmlFor="pet-name" className={labelClass}>
          Pet's name
        </label>
        <input id="pet-name" className={inputClass} value={draft.name} maxLength={maxPetNameLength} onChange={(e) => set("name", e.target.value)} {...described("name")} />
        {error("name")}
      </div>
      <fieldset className="min-w-0">
        <legend className={labelClass}>Species</legend>
        <div className="flex gap-4 py-2 text-sm">
          {(["dog", "cat"] as const).map((species) => (
            <label key={species} className="flex items-center gap-1.5">
              <input type="radio" name="pet-species" value={species} checked={draft.species === species} onChange={() => changeSpecies(species)} />
              {species === "dog" ? "Dog" : "Cat"}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="min-w-0">
        <label htmlFor="pet-weight" className={labelClass}>
          Weight (kg)
        </label>
        <input
          id="pet-weight"
          className={inputClass}
          inputMode="decimal"
          value={draft.weightKg}
          onChange={(e) => set("weightKg", e.target.value)}
          {...described("weightKg")}
        />
        {error("weightKg")}
      </div>
      <div className="min-w-0">
        <label htmlFor="pet-life-stage" className={labelClass}>
          Life stage
        </label>
        <select id="pet-life-stage" className={inputClass} value={draft.lifeStage} onChange={(e) => set("lifeStage", e.target.value as LifeStage)} {...described("lifeStage")}>
          {stagesOf[draft.species].map((stage) => (
            <option key={stage} value={stage}>
              {stageLabels[stage]}
            </option>
          ))}
        </select>
        {error("lifeStage")}
      </div>
      <div className="min-w-0">
        <label htmlFor="pet-activity" className={labelClass}>
          Activity
        </label>
        <select id="pet-activity" className={inputClass} value={draft.activity} onChange={(e) => set("activity", e.target.value as Activity)}>
          {activities.map((activity) => (
            <option key={activity} value={activity}>
              {activityLabels[activity]}
            </option>
          ))}
        </select>
      </div>
      <label className="flex items-center gap-2 self-end py-2 text-sm text-slate-800">
        <input type="checkbox" checked={draft.neutered} onChange={(e) => set("neutered", e.target.checked)} />
        Neutered
      </label>
      <div className="col-span-2 flex flex-wrap gap-2 md:col-span-3">
        <button type="submit" className="btn-primary">
          Save pet
        </button>
        {props.onCancel && (
          <button type="button" className="btn-outline" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
      <p className="col-span-2 text-xs text-slate-500 md:col-span-3">Kept in this browser only; never sent to us.</p>
    </form>
  );
}

function Figures({ pet, props }: { pet: PetProfile; props: FeedingCostProps }) {
  if (pet.species !== props.species) {
    return (
      <p className="mt-4 text-sm text-slate-700" data-testid="feeding-other-species">
        This food is for {plural[props.species]}; {pet.name} is a {pet.species}.
      </p>
    );
  }
  const food: FoodFacts = { kcalPerKg: props.kcalPerKg, guide: props.guideRows ? { rows: props.guideRows } : null };
  const daily = dailyGrams(pet, food);
  if (daily === null) return <p className="mt-4 text-sm text-slate-700">We don't know how much of this food to feed.</p>;
  const rows = props.offers.map((offer) => ({ offer, cost: feedingCost({ grams: daily.grams, packGrams: props.packGrams, totalPence: offer.totalPence }) }));
  const sizeRows = props.otherSizes.map((size) => ({ size, cost: feedingCost({ grams: daily.grams, packGrams: size.packGrams, totalPence: size.totalPence }) }));
  // Every way to buy it: this pack at each retailer (one-off or repeat delivery), each other size at its best price.
  const ways = [
    ...props.offers.map((offer) => ({ label: props.packLabel, retailer: offer.retailer, packGrams: props.packGrams, totalPence: offer.totalPence, repeatTotalPence: offer.repeatTotalPence })),
    ...props.otherSizes.map((size) => ({ label: size.label, retailer: size.retailer, packGrams: size.packGrams, totalPence: size.totalPence, repeatTotalPence: null })),
  ];
  const cheapest = cheapestWayToFeed(
    pet,
    food,
    ways.map((way, index) => ({ key: String(index), packGrams: way.packGrams, totalPence: way.totalPence, repeatTotalPence: way.repeatTotalPence })),
  );
  const cheapestWay = cheapest === null ? undefined : ways[Number(cheapest.option.key)];
  return (
    <div className="mt-4">
      <p className="text-lg font-semibold text-slate-900" data-testid="feeding-grams">
        {pet.name} eats about {daily.grams.toLocaleString("en-GB")} g a day
      </p>
      <p className="mt-1 text-xs text-slate-600" data-testid="feeding-method">
        {describeMethod(daily)}
      </p>
      {rows.length === 0 ? (
        <p className="mt-4 text-sm text-slate-700">No retailer has this pack in stock just now.</p>
      ) : (
        <table className="mt-4 w-full text-sm" data-testid="feeding-offers">
          <CostHead first="Retailer" />
          <tbody>
            {rows.map(({ offer, cost }) => (
              <tr key={offer.retailer} className="border-t border-slate-100" data-retailer={offer.retailer}>
                <th scope="row" className="py-1.5 text-left font-medium text-slate-900">
                  {offer.retailer}
                </th>
                <CostCells cost={cost} testId="feeding" />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sizeRows.length > 0 && (
        <table className="mt-4 w-full text-sm" data-testid="feeding-sizes">
          <caption className="mb-1 text-left text-xs font-semibold text-slate-700">Other sizes, at their best price to the door</caption>
          <CostHead first="Size" />
          <tbody>
            {sizeRows.map(({ size, cost }) => (
              <tr key={size.href} className="border-t border-slate-100" data-size={size.label}>
                <th scope="row" className="py-1.5 text-left font-medium text-slate-900">
                  <a href={size.href} className="text-brand-700 underline hover:text-brand-800">
                    {size.label}
                  </a>{" "}
                  <span className="font-normal text-slate-600">at {size.retailer}</span>
                </th>
                <CostCells cost={cost} testId="feeding-size" />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cheapest && cheapestWay && (
        <p className="mt-4 rounded-lg bg-emerald-50 p-3 text-sm font-medium text-emerald-900" data-testid="feeding-cheapest">
          The cheapest way to feed {pet.name} for a month: {cheapestWay.label} at {cheapestWay.retailer}
          {cheapest.repeat ? " on repeat delivery" : ""}, {formatPence(cheapest.perMonthPence)} incl. delivery
        </p>
      )}
      <p className="mt-2 text-xs text-slate-500">Prices to the door, one pack at a time; a month is 30.4 days. A guide, not veterinary advice.</p>
    </div>
  );
}

/** A cost table's header: what its rows are, then a day, a month and how long a pack lasts. */
function CostHead({ first }: { first: string }) {
  return (
    <thead>
      <tr className="text-left text-xs text-slate-600">
        <th scope="col" className="py-1 font-semibold">
          {first}
        </th>
        {["A day", "A month", "Pack lasts"].map((label) => (
          <th key={label} scope="col" className="py-1 text-right font-semibold">
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** A row's cost a day, a month and how long a pack lasts ("–" when it cannot be worked out). */
function CostCells({ cost, testId }: { cost: PackCost | null; testId: string }) {
  return (
    <>
      <td className="py-1.5 text-right tabular-nums" data-testid={`${testId}-per-day`}>
        {cost ? formatPence(cost.perDayPence) : "–"}
      </td>
      <td className="py-1.5 text-right tabular-nums" data-testid={`${testId}-per-month`}>
        {cost ? formatPence(cost.perMonthPence) : "–"}
      </td>
      <td className="py-1.5 text-right tabular-nums text-slate-600">{cost ? `${cost.daysPerPack} days` : "–"}</td>
    </>
  );
}

export default function FeedingCost(props: FeedingCostProps) {
  const pet = useStore($petProfile);
  const [ready, setReady] = useState(false);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    loadPetProfile();
    setReady(true);
  }, []);

  return (
    <section aria-labelledby="feeding-heading" className="card mt-10 p-5 sm:p-6" data-testid="feeding-cost">
      <h2 id="feeding-heading" className="text-xl font-bold tracking-tight text-slate-900">
        Feeding Cost
      </h2>
      {!ready ? (
        <p className="mt-1 text-sm text-slate-600">What feeding your {props.species} this food costs a day and a month.</p>
      ) : pet === null || editing ? (
        <>
          <p className="mt-1 text-sm text-slate-600">Tell us about your pet to see what feeding it this food costs a day and a month.</p>
          <PetForm initial={draftFrom(pet, props.species)} onSaved={() => setEditing(false)} onCancel={pet === null ? null : () => setEditing(false)} />
        </>
      ) : (
        <>
          <Figures pet={pet} props={props} />
          <div className="mt-4 flex flex-wrap gap-2">
            <button type="button" className="btn-outline" onClick={() => setEditing(true)}>
              Edit pet
            </button>
            <button type="button" className="btn-outline" onClick={() => forgetPetProfile()}>
              Forget pet
            </button>
          </div>
        </>
      )}
    </section>
  );
}
