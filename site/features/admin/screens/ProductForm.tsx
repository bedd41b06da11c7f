/**
 * The product form: /admin/products/new and /add create, /admin/products/edit/{id} and
 * /admin/products/{id} edit. Name and category are required; offer rows need a retailer and a
 * URL to be saved; Extract Price reads a row's price (and stock) from its retailer page. What the
 * server refuses is shown in plain words under the field concerned, with a short summary by the
 * Save button. After a save, Cancel or Back the list is shown again with the search and page it
 * had (carried in this form's address).
 */
import { useStore } from "@nanostores/react";
import { CirclePlus, LoaderCircle, ScanSearch, Trash, TriangleAlert } from "../icons.tsx";
import { useId, useState, type FormEvent } from "react";
import { ApiError } from "../../../lib/api.ts";
import { cn } from "../../../lib/cn.ts";
import { maxBrandLength } from "../../../../data/domain/catalogue.ts";
import { formatPrice } from "../../../../data/domain/display.ts";
import { isLegalCategory, isPrescriptionOnly, legalCategories, legalCategoryLabels } from "../../../../data/domain/legal-category.ts";
import { maxRepeatTermsLength } from "../../../../data/domain/repeat-delivery.ts";
import { maxMultiBuyLength } from "../../../../data/domain/multi-buy.ts";
import { maxMemberSchemeLength } from "../../../../data/domain/member-price.ts";
import { maxSlugLength, slugify } from "../../../../data/domain/slug.ts";
import { productDetailList, type ProductDetailKey } from "../../../../data/domain/product-details.ts";
import { toast } from "../../toast/toast.store.ts";
import {
  createProduct,
  errorMessage,
  extractPrice,
  fetchAdminProduct,
  fetchBrands,
  fetchCategories,
  fetchRetailers,
  updateProduct,
  type AdminCategory,
  type AdminRetailer,
} from "../admin-api.ts";
import {
  canExtractPrice,
  emptyOfferRow,
  extractedPriceToast,
  pickableCandidates,
  extractFailedToast,
  emptyProductFields,
  foodFactsProblems,
  missingRequired,
  priceInputDisabled,
  priceNote,
  productFieldsFrom,
  productInput,
  saveProblem,
  withExtractedPrice,
  withLegalCategory,
  withPickedCandidate,
  withOverride,
  type OfferProblemField,
  type OfferRow,
  type ProblemField,
  type ProductFields,
  type SaveProblem,
} from "../product-form.ts";
import { productListReturn } from "../routes.ts";
import { $location, navigate } from "../router.ts";
import { AdminLink, Badge, Card, Checkbox, Field, inputClass, LoadFailed, Loading, PageHeader, useLoad } from "../ui.tsx";
import { catalogueTextLimits } from "../../../../data/domain/limits.ts";

interface FormData {
  fields: ProductFields;
  categories: AdminCategory[];
  retailers: AdminRetailer[];
  brands: string[];
}

async function loadForm(id: number | null): Promise<FormData> {
  const [product, categories, retailers, brands] = await Promise.all([
    id === null ? Promise.resolve(null) : fetchAdminProduct(id),
    fetchCategories(),
    fetchRetailers(),
    fetchBrands(),
  ]);
  return { fields: product ? productFieldsFrom(product) : emptyProductFields(), categories, retailers, brands };
}

/** The element to focus for a problem: a form field's control, or an offer row's. */
function problemElementId(at: NonNullable<SaveProblem["at"]>): string {
  return "row" in at ? offerFieldId(at.row, at.field) : productFieldIds[at.field];
}

const productFieldIds: Record<ProblemField, string> = {
  name: "product-name",
  slugField: "product-slug",
  brand: "product-brand",
  categoryId: "product-category",
  familyField: "product-family",
  kcalField: "product-kcal",
  guideField: "product-guide",
  image: "product-image",
  ...(Object.fromEntries(productDetailList.map((detail) => [detail.key, `product-${detail.key}`])) as Record<ProductDetailKey, string>),
  rating: "product-rating",
  reviewCount: "product-review-count",
  legalCategory: "product-legal-category",
};

const offerFieldId = (rowKey: number, field: OfferProblemField) => `offer-${rowKey}-${field}`;

export default function ProductForm({ id }: { id: number | null }) {
  const { state, reload } = useLoad(() => loadForm(id), [id]);
  const location = useStore($location);
  const title = id === null ? "Add New Product" : "Edit Product";
  // The list this form was opened from, with its search and page.
  const back = { href: productListReturn(location.search), label: "Back to Products" };
  if (state.kind === "loading") {
    return (
      <div>
        <PageHeader title={title} back={back} />
        <Loading label="Loading product..." />
      </div>
    );
  }
  if (state.kind === "failed") {
    const notFound = state.error instanceof ApiError && state.error.status === 404;
    return (
      <div>
        <PageHeader title={title} back={back} />
        <LoadFailed message={notFound ? "This product does not exist (it may have been deleted)." : errorMessage(state.error, "Could not load the product.")} onRetry={reload} />
      </div>
    );
  }
  return <ProductEditor id={id} title={title} back={back} data={state.data} />;
}

function ProductEditor({ id, title, back, data }: { id: number | null; title: string; back: { href: string; label: string }; data: FormData }) {
  const [fields, setFields] = useState<ProductFields>(data.fields);
  const [saving, setSaving] = useState(false);
  const [showRequired, setShowRequired] = useState(false);
  const [showFoodProblems, setShowFoodProblems] = useState(false);
  /** Why the last save failed, shown under its field and summed up by the Save button; cleared when that field is edited. */
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const brandListId = useId();
  const set = <K extends keyof ProductFields>(key: K, value: ProductFields[K]) => {
    setFields((previous) => ({ ...previous, [key]: value }));
    setProblem((current) => (current?.at && "field" in current.at && !("row" in current.at) && current.at.field === key ? null : current));
  };
  const setRow = (key: number, change: (row: OfferRow) => OfferRow) => {
    setFields((previous) => ({ ...previous, offers: previous.offers.map((row) => (row.key === key ? change(row) : row)) }));
    setProblem((current) => (current?.at && "row" in current.at && current.at.row === key ? null : current));
  };
  /** The problem's message when it belongs under this field of the form. */
  const problemFor = (field: ProblemField) => (problem?.at && !("row" in problem.at) && problem.at.field === field ? problem.message : null);
  const retailerName = (row: OfferRow) => data.retailers.find((retailer) => String(retailer.id) === row.retailerId)?.name;

  function showProblem(found: SaveProblem) {
    setProblem(found);
    if (found.at) {
      const at = found.at;
      // After the render that shows the message, so the field's description includes it.
      requestAnimationFrame(() => document.getElementById(problemElementId(at))?.focus());
    }
  }

  // Offers are for retailers whose prices the site compares; a row keeps its retailer even if that changed.
  const offerRetailers = (row: OfferRow) => data.retailers.filter((retailer) => retailer.comparesPrices || String(retailer.id) === row.retailerId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (missingRequired(fields)) {
      setShowRequired(true);
      toast({ title: "Missing Fields", description: "Please fill in product name and category.", variant: "destructive" });
      document.getElementById(fields.name.trim() === "" ? "product-name" : "product-category")?.focus();
      return;
    }
    const problems = foodFactsProblems(fields);
    if (problems.kcal !== null || problems.guide !== null) {
      setShowFoodProblems(true);
      showProblem(
        problems.kcal !== null
          ? { at: { field: "kcalField" }, label: "Energy (kcal per kg)", message: problems.kcal }
          : { at: { field: "guideField" }, label: "Feeding guide", message: problems.guide! },
      );
      return;
    }
    setProblem(null);
    setSaving(true);
    const input = productInput(fields);
    try {
      if (id === null) {
        await createProduct(input);
        toast({ title: "Product Created", description: "Product created successfully!" });
      } else {
        await updateProduct(id, input);
        toast({ title: "Success", description: "Product updated successfully and is now live on the website!" });
      }
      navigate(back.href);
    } catch (error) {
      setSaving(false);
      const fallback = id === null ? "Failed to create product" : "Failed to update product. Please try again.";
      const found = saveProblem(error, fields, fallback, retailerName);
      showProblem(found);
      // A refusal of a field is told under it and by the Save button; anything else (no network, a server fault) also as a toast.
      if (found.at === null) toast({ title: id === null ? "Error" : "Update Failed", description: found.message, variant: "destructive" });
    }
  }

  const derivedSlug = slugify(fields.name);
  const nameMissing = showRequired && fields.name.trim() === "";
  const categoryMissing = showRequired && fields.categoryId === "";
  const foodProblems = showFoodProblems ? foodFactsProblems(fields) : { kcal: null, guide: null };
  const rowProblem = (row: OfferRow) => (problem?.at && "row" in problem.at && problem.at.row === row.key ? { field: problem.at.field, message: problem.message } : null);

  return (
    <form onSubmit={submit} noValidate={false} aria-labelledby="product-form-title" data-testid="product-form">
      <PageHeader title={id === null ? title : `${title}: ${data.fields.name}`} back={back} />
      <span id="product-form-title" className="sr-only">
        {title}
      </span>
      <div className="grid gap-6 xl:grid-cols-3">
        <Card className="grid gap-4 xl:col-span-2" aria-labelledby="details-heading">
          <h2 id="details-heading" className="text-lg font-semibold text-slate-900">
            Details
          </h2>
          <Field label="Product name" id="product-name" required error={nameMissing ? "Product name is required" : problemFor("name")}>
            {({ id: inputId, describedBy, invalid }) => (
              <input
                id={inputId}
                value={fields.name}
                onChange={(event) => set("name", event.target.value)}
                className={inputClass}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                aria-required="true"
                maxLength={catalogueTextLimits.productName}
              />
            )}
          </Field>
          <Field
            label="Slug"
            id="product-slug"
            error={problemFor("slugField")}
            hint={
              id === null
                ? `Leave empty to use the name: /product/${derivedSlug || "..."}`
                : "The page address. Changing it breaks links people have saved; leave it unless it is wrong."
            }
          >
            {({ id: inputId, describedBy, invalid }) => (
              <input
                id={inputId}
                aria-invalid={invalid}
                value={fields.slugField}
                onChange={(event) => set("slugField", event.target.value)}
                placeholder={derivedSlug}
                className={inputClass}
                aria-describedby={describedBy}
                maxLength={maxSlugLength}
              />
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Brand" id="product-brand" hint="Pick a brand or type a new one." error={problemFor("brand")}>
              {({ id: inputId, describedBy, invalid }) => (
                <>
                  <input
                    id={inputId}
                    aria-invalid={invalid}
                    list={brandListId}
                    value={fields.brand}
                    onChange={(event) => set("brand", event.target.value)}
                    className={inputClass}
                    aria-describedby={describedBy}
                    autoComplete="off"
                    maxLength={maxBrandLength}
                  />
                  <datalist id={brandListId}>
                    {data.brands.map((brand) => (
                      <option key={brand} value={brand} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
            <Field label="Category" id="product-category" required error={categoryMissing ? "Category is required" : problemFor("categoryId")}>
              {({ id: inputId, describedBy, invalid }) => (
                <select
                  id={inputId}
                  value={fields.categoryId}
                  onChange={(event) => set("categoryId", event.target.value)}
                  className={inputClass}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  aria-required="true"
                >
                  <option value="">Select a category</option>
                  {data.categories.map((category) => (
                    <option key={category.id} value={category.id}>
                      {category.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field
            label="Family"
            id="product-family"
            error={problemFor("familyField")}
            hint="Sizes of one product share a family (e.g. royal-canin-maxi-adult): each size keeps its own page, and its page lists the others. Leave empty for none."
          >
            {({ id: inputId, describedBy, invalid }) => (
              <input
                id={inputId}
                aria-invalid={invalid}
                value={fields.familyField}
                onChange={(event) => set("familyField", event.target.value)}
                className={inputClass}
                aria-describedby={describedBy}
                autoComplete="off"
                maxLength={maxSlugLength}
              />
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
            <Field
              label="Energy (kcal per kg)"
              id="product-kcal"
              hint="Foods only, as fed (from the pack's analysis). Feeding costs are estimated from it when there is no guide."
              error={foodProblems.kcal ?? problemFor("kcalField")}
            >
              {({ id: inputId, describedBy, invalid }) => (
                <input
                  id={inputId}
                  type="text"
                  inputMode="numeric"
                  value={fields.kcalField}
                  onChange={(event) => set("kcalField", event.target.value)}
                  className={inputClass}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  autoComplete="off"
                  placeholder="e.g. 3800"
                />
              )}
            </Field>
            <Field
              label="Feeding guide"
              id="product-guide"
              hint="Foods only: a row per line, the body weight and the grams a day from the pack, e.g. 5 kg: 95 g. Weights rising, at least two rows. Leave empty for none."
              error={foodProblems.guide ?? problemFor("guideField")}
            >
              {({ id: inputId, describedBy, invalid }) => (
                <textarea
                  id={inputId}
                  rows={4}
                  value={fields.guideField}
                  onChange={(event) => set("guideField", event.target.value)}
                  className={inputClass}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  placeholder={"5 kg: 95 g\n10 kg: 160 g"}
                />
              )}
            </Field>
          </div>
          <Field label="Image URL" id="product-image" hint="An https address, or a path on this site." error={problemFor("image")}>
            {({ id: inputId, describedBy, invalid }) => (
              <div className="flex items-start gap-3">
                <input
                  id={inputId}
                  aria-invalid={invalid}
                  type="text"
                  inputMode="url"
                  value={fields.image}
                  onChange={(event) => set("image", event.target.value)}
                  placeholder="https://"
                  className={inputClass}
                  aria-describedby={describedBy}
                />
                {/^(https?:\/\/|\/)/.test(fields.image.trim()) && (
                  <img src={fields.image.trim()} alt="" className="size-10 shrink-0 rounded-md border border-slate-200 bg-white object-contain" />
                )}
              </div>
            )}
          </Field>
          {productDetailList.map(({ choices, ...detail }) =>
            choices && detail.multiple ? (
              <fieldset key={detail.key} id={productFieldIds[detail.key]} aria-describedby={`${productFieldIds[detail.key]}-hint`}>
                <legend className="text-sm font-medium text-slate-800">{detail.label}</legend>
                <div className="mt-1.5 flex flex-wrap gap-x-5 gap-y-2">
                  {choices.map((choice) => {
                    const ticked = fields[detail.key].split(",").includes(choice.value);
                    return (
                      <Checkbox
                        key={choice.value}
                        label={choice.label}
                        checked={ticked}
                        onChange={(event) => {
                          const others = fields[detail.key].split(",").filter((value) => value !== "" && value !== choice.value);
                          const next = event.target.checked ? [...others, choice.value] : others;
                          set(detail.key, choices.map((option) => option.value).filter((value) => next.includes(value)).join(","));
                        }}
                      />
                    );
                  })}
                </div>
                <p id={`${productFieldIds[detail.key]}-hint`} className="mt-1 text-xs text-slate-600">
                  {detail.hint}
                </p>
                {problemFor(detail.key) && (
                  <p role="alert" className="mt-1 text-sm text-red-700">
                    {problemFor(detail.key)}
                  </p>
                )}
              </fieldset>
            ) : (
              <Field key={detail.key} label={detail.label} id={productFieldIds[detail.key]} hint={detail.hint} error={problemFor(detail.key)}>
                {({ id: inputId, describedBy, invalid }) =>
                  choices ? (
                    <select
                      id={inputId}
                      value={fields[detail.key]}
                      onChange={(event) => set(detail.key, event.target.value)}
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                      className={inputClass}
                    >
                      <option value="">Not stated</option>
                      {choices.map((choice) => (
                        <option key={choice.value} value={choice.value}>
                          {choice.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <textarea
                      id={inputId}
                      rows={detail.lines}
                      maxLength={detail.maxLength}
                      value={fields[detail.key]}
                      onChange={(event) => set(detail.key, event.target.value)}
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                      className={inputClass}
                    />
                  )
                }
              </Field>
            ),
          )}
        </Card>

        <Card className="grid content-start gap-4 self-start" aria-labelledby="listing-heading">
          <h2 id="listing-heading" className="text-lg font-semibold text-slate-900">
            Listing
          </h2>
          <Field label="Rating" id="product-rating" hint="0 to 5, one decimal; empty when there are no reviews (none is shown without them)." error={problemFor("rating")}>
            {({ id: inputId, describedBy, invalid }) => (
              <input
                id={inputId}
                aria-invalid={invalid}
                type="number"
                min={0}
                max={5}
                step={0.1}
                value={fields.rating}
                onChange={(event) => set("rating", event.target.value)}
                className={inputClass}
                aria-describedby={describedBy}
              />
            )}
          </Field>
          <Field label="Review count" id="product-review-count" error={problemFor("reviewCount")}>
            {({ id: inputId, describedBy, invalid }) => (
              <input
                id={inputId}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                type="number"
                min={0}
                step={1}
                value={fields.reviewCount}
                onChange={(event) => set("reviewCount", event.target.value)}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Legal category"
            id="product-legal-category"
            error={problemFor("legalCategory")}
            hint="Veterinary medicines only, as on the pack. POM-V and POM-VPS need a prescription: shown as a plain price list, never featured, with no deal badges or price alerts."
          >
            {({ id: inputId, describedBy, invalid }) => (
              <select
                id={inputId}
                aria-invalid={invalid}
                value={fields.legalCategory}
                onChange={(event) => {
                  const value = event.target.value;
                  if (isLegalCategory(value)) setFields((previous) => withLegalCategory(previous, value));
                }}
                className={inputClass}
                aria-describedby={describedBy}
              >
                {legalCategories.map((category) => (
                  <option key={category} value={category}>
                    {legalCategoryLabels[category]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div>
            <Checkbox
              label="Featured product"
              aria-describedby="product-featured-hint"
              checked={fields.isFeatured}
              disabled={isPrescriptionOnly(fields.legalCategory)}
              onChange={(event) => set("isFeatured", event.target.checked)}
            />
            <p id="product-featured-hint" className="mt-1 text-xs text-slate-600">
              Of the featured products, the best-selling one is the example deal beside the home page's heading. Grids and search keep their own order.
            </p>
          </div>
        </Card>
      </div>

      <Card className="mt-6" aria-labelledby="offers-heading">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="offers-heading" className="text-lg font-semibold text-slate-900">
              Retailer offers
            </h2>
            <p className="text-sm text-slate-600">Rows without both a retailer and a URL are not saved.</p>
          </div>
          <button type="button" className="btn-outline" onClick={() => set("offers", [...fields.offers, emptyOfferRow()])}>
            <CirclePlus className="size-4" aria-hidden="true" />
            Add offer
          </button>
        </div>
        {fields.offers.length === 0 && <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">No offers yet. Add one per retailer that sells this product.</p>}
        <ol className="grid gap-4">
          {fields.offers.map((row, index) => (
            <OfferRowEditor
              key={row.key}
              row={row}
              number={index + 1}
              retailers={offerRetailers(row)}
              problem={rowProblem(row)}
              takenRetailerIds={new Set(fields.offers.filter((other) => other.key !== row.key).map((other) => other.retailerId))}
              onChange={(change) => setRow(row.key, change)}
              onRemove={() => set("offers", fields.offers.filter((other) => other.key !== row.key))}
            />
          ))}
        </ol>
      </Card>

      <div className="sticky bottom-0 z-10 mt-6 -mx-4 flex flex-wrap items-center justify-end gap-2 border-t border-slate-200 bg-slate-50/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-4">
        <div role="alert" className="mr-auto min-w-0 basis-full text-sm text-red-800 sm:basis-auto" data-testid="save-summary">
          {problem && (
            <p className="flex flex-wrap items-center gap-x-2">
              <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
              <span className="font-semibold">Not saved:</span>{" "}
              {problem.at ? (
                <button
                  type="button"
                  className="text-left font-medium underline underline-offset-2 hover:text-red-950"
                  onClick={() => problem.at && document.getElementById(problemElementId(problem.at))?.focus()}
                >
                  check {problem.label}
                </button>
              ) : (
                <span className="break-words">{problem.label ? `${problem.label}: ${problem.message}` : problem.message}</span>
              )}
            </p>
          )}
        </div>
        <AdminLink href={back.href} className="btn-outline">
          Cancel
        </AdminLink>
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : id === null ? "Create Product" : "Update Product"}
        </button>
      </div>
    </form>
  );
}

/** The prices a page listed when nothing on it picked one: the admin picks this product's. */
function PriceChoices(props: { choices: { rule: string; prices: ReturnType<typeof pickableCandidates> }; onPick: (choice: ReturnType<typeof pickableCandidates>[number]) => void }) {
  return (
    <div className="sm:col-span-2 lg:col-span-6" role="group" aria-label="Prices listed on the page">
      <p className="text-sm text-slate-700">The page lists several prices and nothing on it picks one. Which is this product's?</p>
      {props.choices.rule && <p className="text-xs text-slate-500">{props.choices.rule}</p>}
      <ul className="mt-2 flex flex-wrap gap-2">
        {props.choices.prices.map((choice, index) => (
          <li key={index}>
            <button type="button" className="btn-outline" onClick={() => props.onPick(choice)}>
              {formatPrice(choice.price)} <span className="text-slate-500">{choice.label}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function OfferRowEditor(props: {
  row: OfferRow;
  number: number;
  retailers: AdminRetailer[];
  /** What the server refused in this row, shown under its field. */
  problem: { field: OfferProblemField; message: string } | null;
  takenRetailerIds: Set<string>;
  onChange: (change: (row: OfferRow) => OfferRow) => void;
  onRemove: () => void;
}) {
  const { row, onChange } = props;
  const update = <K extends keyof OfferRow>(key: K, value: OfferRow[K]) => onChange((current) => ({ ...current, [key]: value }));
  const retailerName = props.retailers.find((retailer) => String(retailer.id) === row.retailerId)?.name;
  const legend = `Offer ${props.number}${retailerName ? `: ${retailerName}` : ""}`;
  const priceDisabled = priceInputDisabled(row);
  const errorFor = (field: OfferProblemField) => (props.problem?.field === field ? props.problem.message : null);
  const fieldId = (field: OfferProblemField) => offerFieldId(row.key, field);
  const [extracting, setExtracting] = useState(false);
  /** The prices the page listed when nothing on it picked one, for the admin to choose from. */
  const [choices, setChoices] = useState<{ url: string; rule: string; prices: ReturnType<typeof pickableCandidates> } | null>(null);

  async function extract() {
    const url = row.affiliateUrl.trim();
    setExtracting(true);
    setChoices(null);
    try {
      const result = await extractPrice(url);
      onChange((current) => withExtractedPrice(current, url, result));
      const prices = pickableCandidates(result);
      if (prices.length > 0) setChoices({ url, rule: result.reason ?? "", prices });
      toast(extractedPriceToast(result));
    } catch (error) {
      toast(extractFailedToast(error));
    } finally {
      setExtracting(false);
    }
  }

  return (
    <li>
      <fieldset className="rounded-lg border border-slate-200 bg-slate-50/60 p-4" data-testid="offer-row">
        <div className="mb-3 flex items-center justify-between gap-2">
          <legend className="float-left text-sm font-semibold text-slate-900">{legend}</legend>
          <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={props.onRemove} aria-label={`Remove ${legend}`}>
            <Trash className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">Remove</span>
          </button>
        </div>
        <div className="clear-both grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
          <Field label="Retailer" className="lg:col-span-2" id={fieldId("retailerId")} error={errorFor("retailerId")}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                value={row.retailerId}
                onChange={(event) => update("retailerId", event.target.value)}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={inputClass}
              >
                <option value="">Select a retailer</option>
                {props.retailers.map((retailer) => (
                  <option key={retailer.id} value={retailer.id} disabled={props.takenRetailerIds.has(String(retailer.id))}>
                    {retailer.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Product URL" className="sm:col-span-2 lg:col-span-4" id={fieldId("affiliateUrl")} error={errorFor("affiliateUrl")}>
            {({ id, describedBy, invalid }) => (
              <div className="flex flex-col gap-2 sm:flex-row">
                <input
                  id={id}
                  type="url"
                  value={row.affiliateUrl}
                  onChange={(event) => update("affiliateUrl", event.target.value)}
                  placeholder="https://"
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  className={inputClass}
                />
                <button
                  type="button"
                  className="btn-outline shrink-0 whitespace-nowrap"
                  onClick={extract}
                  disabled={extracting || !canExtractPrice(row)}
                  title={canExtractPrice(row) ? "Read the price from the retailer's page" : "Enter the product URL first"}
                >
                  {extracting ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : <ScanSearch className="size-4" aria-hidden="true" />}
                  {extracting ? "Extracting..." : "Extract Price"}
                </button>
              </div>
            )}
          </Field>
          {choices !== null && choices.url === row.affiliateUrl.trim() && (
            <PriceChoices
              choices={choices}
              onPick={(choice) => {
                onChange((current) => withPickedCandidate(current, choices.url, choice));
                setChoices(null);
              }}
            />
          )}
          <Field label="Price (£)" className="lg:col-span-2" hint={priceDisabled ? "Enter the product URL first." : undefined} id={fieldId("price")} error={errorFor("price")}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="number"
                min={0}
                step={0.01}
                inputMode="decimal"
                value={row.price}
                onChange={(event) => update("price", event.target.value)}
                disabled={priceDisabled}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Original price (£)"
            className="lg:col-span-2"
            hint="The retailer's RRP or was-price, if any. Shoppers see a was-price only from the price history."
            id={fieldId("originalPrice")}
            error={errorFor("originalPrice")}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="number"
                min={0}
                step={0.01}
                inputMode="decimal"
                value={row.originalPrice}
                onChange={(event) => update("originalPrice", event.target.value)}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Manual price (£)"
            className="lg:col-span-2"
            hint={row.priceOverride ? "Shoppers pay this price." : "Used when Override Price is on."}
            id={fieldId("manualPrice")}
            error={errorFor("manualPrice")}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="number"
                min={0}
                step={0.01}
                inputMode="decimal"
                value={row.manualPrice}
                onChange={(event) => update("manualPrice", event.target.value)}
                disabled={!row.priceOverride}
                required={row.priceOverride}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Repeat delivery price (£)"
            className="lg:col-span-2"
            hint="Subscribe & Save, Repeat, Easy Repeat: the item price on the scheme, at most the one-off price. Blank: none."
            id={fieldId("repeatPrice")}
            error={errorFor("repeatPrice")}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="number"
                min={0}
                step={0.01}
                inputMode="decimal"
                value={row.repeatPrice}
                onChange={(event) => update("repeatPrice", event.target.value)}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Repeat delivery terms"
            className="sm:col-span-2 lg:col-span-4"
            hint="One line, up to 200 characters, e.g. 5% off; skip or cancel any time."
            id={fieldId("repeatTerms")}
            error={errorFor("repeatTerms")}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="text"
                maxLength={maxRepeatTermsLength}
                value={row.repeatTerms}
                onChange={(event) => update("repeatTerms", event.target.value)}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Multi-buy"
            className="sm:col-span-2 lg:col-span-2"
            hint='Optional: "3 for 2", "buy 2 get 1 free" or "2 for £20". Baskets are priced with it.'
            id={fieldId("multiBuy")}
            error={errorFor("multiBuy")}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="text"
                maxLength={maxMultiBuyLength}
                value={row.multiBuy}
                onChange={(event) => update("multiBuy", event.target.value)}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field
            label="Member price"
            hint="What loyalty members pay, below the one-off price. Blank: none."
            id={fieldId("memberPrice")}
            error={errorFor("memberPrice")}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="number"
                min={0}
                step={0.01}
                inputMode="decimal"
                value={row.memberPrice}
                onChange={(event) => update("memberPrice", event.target.value)}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
          <Field label="Member scheme" hint="Shown beside the price, e.g. Pets Club, zooPoints, PetCLUB." id={fieldId("memberScheme")} error={errorFor("memberScheme")}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                aria-invalid={invalid}
                type="text"
                maxLength={maxMemberSchemeLength}
                value={row.memberScheme}
                onChange={(event) => update("memberScheme", event.target.value)}
                aria-describedby={describedBy}
                className={inputClass}
              />
            )}
          </Field>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-2">
          <Checkbox label="In stock" checked={row.inStock} onChange={(event) => update("inStock", event.target.checked)} />
          <Checkbox label="Free delivery" checked={row.freeDelivery} onChange={(event) => update("freeDelivery", event.target.checked)} />
          <span className="inline-flex items-center gap-2">
            <Checkbox label="Override Price" checked={row.priceOverride} onChange={(event) => onChange((current) => withOverride(current, event.target.checked))} />
            {row.priceOverride && <Badge tone="amber">ACTIVE</Badge>}
          </span>
        </div>
        <p
          className={cn(
            "mt-3 flex items-center gap-2 rounded-md px-3 py-2 text-sm",
            row.priceOverride ? "bg-amber-50 text-amber-900" : "bg-white text-slate-700 ring-1 ring-slate-200",
          )}
          aria-live="polite"
        >
          {row.priceOverride && <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />}
          {priceNote(row)}
        </p>
      </fieldset>
    </li>
  );
}
