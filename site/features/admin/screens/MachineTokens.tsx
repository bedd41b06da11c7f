/**
 * /admin/machine-tokens: the tokens programs use to call this server (the nightly workflow starts
 * the nightly job and downloads the built site with one), and how the last nightly run went. A new
 * token is shown once, to copy; the list shows only each token's first characters. Revoking a
 * token stops it at once; it stays listed as revoked.
 */
import { useRef, useState, type FormEvent } from "react";
import { machineScopeLabels, machineScopes, maxTokenNameLength, type CreatedMachineToken, type MachineScope, type MachineTokenView } from "../../../../data/domain/machine-tokens.ts";
import { nightlyStepLabels, nightlySummaryLines, type NightlyRun } from "../../../../data/domain/nightly.ts";
import { toast } from "../../toast/toast.store.ts";
import { createMachineToken, describeError, errorMessage, fetchMachineTokens, fetchNightlyRuns, revokeMachineToken } from "../admin-api.ts";
import { formatDateTime } from "../format.ts";
import { CirclePlus, KeyRound, Trash } from "../icons.tsx";
import { adminPaths } from "../routes.ts";
import { RunStatusBadge } from "../RunProgress.tsx";
import { Badge, Card, Checkbox, Field, inputClass, LoadFailed, Loading, PageHeader, Table, Td, Th, useLoad } from "../ui.tsx";

async function loadScreen() {
  const [tokens, runs] = await Promise.all([fetchMachineTokens(), fetchNightlyRuns()]);
  return { tokens, lastRun: runs[0] ?? null };
}

export default function MachineTokens() {
  const { state, reload } = useLoad(loadScreen, []);
  const [created, setCreated] = useState<CreatedMachineToken | null>(null);

  async function revoke(token: MachineTokenView) {
    if (!window.confirm(`Revoke the token "${token.name}"? Whatever uses it stops working at once.`)) return;
    try {
      await revokeMachineToken(token.id);
      toast({ title: "Token revoked", description: `"${token.name}" no longer works.` });
      reload();
    } catch (error) {
      toast({ title: "Failed to revoke the token", description: errorMessage(error, "Please try again."), variant: "destructive" });
    }
  }

  return (
    <div>
      <PageHeader
        title="Machine tokens"
        description="Tokens let a program call this server without the admin password: the nightly workflow starts the nightly job and downloads the built site with one."
        back={{ href: adminPaths.dashboard, label: "Dashboard" }}
      />
      <div className="grid gap-6">
        {created ? (
          <NewToken token={created} onDone={() => setCreated(null)} />
        ) : (
          <CreateToken
            onCreated={(token) => {
              setCreated(token);
              reload();
            }}
          />
        )}
        {state.kind === "loading" && <Loading label="Loading tokens..." />}
        {state.kind === "failed" && <LoadFailed message={`Error loading tokens: ${describeError(state.error)}`} onRetry={reload} />}
        {state.kind === "ready" && <TokenList tokens={state.data.tokens} onRevoke={revoke} />}
        {state.kind === "ready" && <LastNightlyRun run={state.data.lastRun} tokens={state.data.tokens} />}
      </div>
    </div>
  );
}

function CreateToken({ onCreated }: { onCreated: (token: CreatedMachineToken) => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<MachineScope[]>([...machineScopes]);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [saving, setSaving] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(name.trim() === "" ? { name: "Name is required" } : {}),
      ...(scopes.length === 0 ? { scopes: "Choose at least one scope" } : {}),
    };
    setErrors(found);
    if (found.name) return nameInput.current?.focus();
    if (found.scopes) return;
    setSaving(true);
    try {
      onCreated(await createMachineToken({ name: name.trim(), scopes }));
      setName("");
      setScopes([...machineScopes]);
    } catch (error) {
      toast({ title: "Failed to create the token", description: errorMessage(error, "Please try again."), variant: "destructive" });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card aria-labelledby="create-token-heading">
      <h2 id="create-token-heading" className="text-lg font-semibold text-slate-900">
        Create a token
      </h2>
      <form onSubmit={submit} noValidate className="mt-3 grid max-w-xl gap-4">
        <Field label="Name" required error={errors.name} hint="What uses it, e.g. GitHub nightly workflow.">
          {({ id, describedBy, invalid }) => (
            <input
              ref={nameInput}
              id={id}
              value={name}
              onChange={(event) => setName(event.target.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              aria-required="true"
              maxLength={maxTokenNameLength}
              autoComplete="off"
              className={inputClass}
            />
          )}
        </Field>
        <fieldset aria-describedby={errors.scopes ? "token-scopes-error" : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-800">What it may do</legend>
          <div className="grid gap-2">
            {machineScopes.map((scope) => (
              <Checkbox
                key={scope}
                checked={scopes.includes(scope)}
                onChange={(event) => setScopes((current) => (event.target.checked ? machineScopes.filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope)))}
                label={
                  <span>
                    {machineScopeLabels[scope]} <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">{scope}</code>
                  </span>
                }
              />
            ))}
          </div>
          {errors.scopes && (
            <p id="token-scopes-error" className="mt-1 text-sm font-medium text-red-700">
              {errors.scopes}
            </p>
          )}
        </fieldset>
        <div>
          <button type="submit" className="btn-primary" disabled={saving}>
            <CirclePlus className="size-4" aria-hidden="true" />
            {saving ? "Creating..." : "Create token"}
          </button>
        </div>
      </form>
    </Card>
  );
}

/** The new token, shown this once, with a button that copies it. */
function NewToken({ token, onDone }: { token: CreatedMachineToken; onDone: () => void }) {
  const field = useRef<HTMLTextAreaElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      toast({ title: "Token copied" });
    } catch {
      field.current?.select();
      toast({ title: "Could not copy", description: "The token is selected: copy it with the keyboard.", variant: "destructive" });
    }
  }
  return (
    <Card aria-labelledby="new-token-heading" className="border-amber-300 bg-amber-50" data-testid="new-token">
      <h2 id="new-token-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <KeyRound className="size-5 shrink-0" aria-hidden="true" />
        Token "{token.name}" created
      </h2>
      <p role="status" className="mt-1 text-sm font-semibold text-amber-950">
        Copy it now: it will not be shown again.
      </p>
      <label htmlFor="new-token-value" className="sr-only">
        The new token
      </label>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        {/* Wraps on a phone, so the whole token is in view. */}
        <textarea
          ref={field}
          id="new-token-value"
          readOnly
          rows={1}
          value={token.token}
          onFocus={(event) => event.target.select()}
          spellCheck={false}
          className={`${inputClass} field-sizing-content min-w-0 resize-none font-mono text-xs break-all`}
        />
        <button type="button" className="btn-primary shrink-0" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="mt-3 text-sm text-slate-700">
        For the nightly workflow, store it as the repository secret <code className="rounded bg-white px-1 py-0.5 text-xs">PAWPRICE_TOKEN</code> (GitHub: Settings, Secrets and
        variables, Actions).
      </p>
      <button type="button" className="btn-outline mt-3" onClick={onDone}>
        Done
      </button>
    </Card>
  );
}

function TokenStatus({ token }: { token: MachineTokenView }) {
  if (token.revokedAt === null) return <Badge tone="green">Active</Badge>;
  return <Badge tone="slate">Revoked {formatDateTime(token.revokedAt)}</Badge>;
}

function ScopeList({ scopes }: { scopes: MachineScope[] }) {
  return (
    <ul className="flex flex-wrap gap-1">
      {scopes.map((scope) => (
        <li key={scope}>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs" title={machineScopeLabels[scope]}>
            {scope}
          </code>
        </li>
      ))}
    </ul>
  );
}

function RevokeButton({ token, onRevoke }: { token: MachineTokenView; onRevoke: (token: MachineTokenView) => void }) {
  if (token.revokedAt !== null) return null;
  return (
    <button type="button" className="btn-ghost px-2 text-red-700 hover:bg-red-50" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.name}`}>
      <Trash className="size-4" aria-hidden="true" />
      Revoke
    </button>
  );
}

function TokenList({ tokens, onRevoke }: { tokens: MachineTokenView[]; onRevoke: (token: MachineTokenView) => void }) {
  if (tokens.length === 0) return <div className="card p-8 text-center text-slate-600">No tokens yet.</div>;
  return (
    <>
      {/* Phones get one card per token; wider screens the table. */}
      <ul className="card divide-y divide-slate-100 md:hidden" aria-label="Machine tokens">
        {tokens.map((token) => (
          <li key={token.id} className="grid gap-2 p-4 text-sm" data-testid="token-card">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-semibold break-words text-slate-900">{token.name}</span>
              <TokenStatus token={token} />
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
              <dt className="text-slate-600">Token</dt>
              <dd className="font-mono break-all text-slate-900">{token.prefix}…</dd>
              <dt className="text-slate-600">Scopes</dt>
              <dd>
                <ScopeList scopes={token.scopes} />
              </dd>
              <dt className="text-slate-600">Created</dt>
              <dd className="text-slate-900">{formatDateTime(token.createdAt)}</dd>
              <dt className="text-slate-600">Last used</dt>
              <dd className="text-slate-900">{formatDateTime(token.lastUsedAt)}</dd>
            </dl>
            <div className="-ml-2">
              <RevokeButton token={token} onRevoke={onRevoke} />
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <Table
          caption="Machine tokens"
          minWidth="48rem"
          head={
            <tr>
              <Th>Name</Th>
              <Th>Token</Th>
              <Th>Scopes</Th>
              <Th>Created</Th>
              <Th>Last used</Th>
              <Th>Status</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          }
        >
          {tokens.map((token) => (
            <tr key={token.id} className="align-top hover:bg-slate-50" data-testid="token-row">
              <Td className="font-semibold break-words text-slate-900">{token.name}</Td>
              <Td className="font-mono text-xs whitespace-nowrap">{token.prefix}…</Td>
              <Td>
                <ScopeList scopes={token.scopes} />
              </Td>
              <Td className="whitespace-nowrap">{formatDateTime(token.createdAt)}</Td>
              <Td className="whitespace-nowrap">{formatDateTime(token.lastUsedAt)}</Td>
              <Td>
                <TokenStatus token={token} />
              </Td>
              <Td className="text-right whitespace-nowrap">
                <RevokeButton token={token} onRevoke={onRevoke} />
              </Td>
            </tr>
          ))}
        </Table>
      </div>
    </>
  );
}

/** Who started a run: the schedule, the admin, or a token (by its name when it is listed). */
function triggerText(trigger: string, tokens: MachineTokenView[]): string {
  if (trigger === "schedule") return "the schedule (NIGHTLY_CRON)";
  if (trigger === "admin") return "the admin";
  const id = Number(/^token:(\d+)$/.exec(trigger)?.[1]);
  const token = tokens.find((candidate) => candidate.id === id);
  return token ? `the token "${token.name}"` : "a machine token";
}

function LastNightlyRun({ run, tokens }: { run: NightlyRun | null; tokens: MachineTokenView[] }) {
  return (
    <Card aria-labelledby="nightly-heading" data-testid="last-nightly-run">
      <h2 id="nightly-heading" className="text-lg font-semibold text-slate-900">
        Last nightly run
      </h2>
      {run === null ? (
        <p className="mt-1 text-sm text-slate-600">No nightly run yet. The nightly workflow starts one with a token that may run the nightly job.</p>
      ) : (
        <>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <RunStatusBadge status={run.status} />
            <span>
              Run {run.id}, started by {triggerText(run.trigger, tokens)}, {formatDateTime(run.startedAt ?? run.queuedAt)}
              {run.finishedAt && `, finished ${formatDateTime(run.finishedAt)}`}
              {run.status === "running" && run.step && `: ${nightlyStepLabels[run.step].toLowerCase()}`}
            </span>
          </p>
          {run.error && (
            <p className="mt-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm break-words text-red-900">{run.error}</p>
          )}
          {run.releaseId && <p className="mt-2 text-sm text-slate-600">Release {run.releaseId}</p>}
          <ul className="mt-3 grid gap-1 text-sm break-words text-slate-700">
            {nightlySummaryLines(run.summary).map((line, index) => (
              <li key={index} className={line.startsWith("  ") ? "pl-4 text-xs text-slate-600" : undefined}>
                {line.trim()}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
