// A form generated from a JSON Schema of the contract: objects as fieldsets, enums as choices, `oneOf` as a choice of
// shape, required fields marked, free-form objects and arrays of objects as JSON. It edits a JSON value in place.
import { useId } from "react";
import { resolve, type Schema, type Spec } from "../api/spec.ts";

type Json = unknown;

function typeOf(schema: Schema): string {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== "null") : schema.type;
  if (t) return t;
  if (schema.properties) return "object";
  if (schema.enum) return typeof schema.enum[0];
  return "json";
}

/** The name of one `oneOf` branch: its title, its $ref's name, or the `const` of a discriminating property. */
export function branchName(spec: Spec, branch: Schema, index: number): string {
  if (branch.title) return branch.title;
  if (branch.$ref) return branch.$ref.split("/").pop() ?? `Shape ${index + 1}`;
  const r = resolve(spec, branch);
  for (const [name, prop] of Object.entries(r.properties ?? {})) {
    const p = resolve(spec, prop);
    if (p.const !== undefined) return `${name}: ${String(p.const)}`;
    if (p.enum?.length === 1) return `${name}: ${String(p.enum[0])}`;
  }
  return `Shape ${index + 1}`;
}

/** Which branch a value fits best: the one whose required properties it has, and whose constants it matches. */
export function pickBranch(spec: Spec, branches: Schema[], value: Json): number {
  if (!value || typeof value !== "object") return 0;
  let best = 0;
  let bestScore = -1;
  branches.forEach((branch, i) => {
    const r = resolve(spec, branch);
    let score = 0;
    for (const name of r.required ?? []) score += name in (value as object) ? 1 : -2;
    for (const [name, prop] of Object.entries(r.properties ?? {})) {
      const p = resolve(spec, prop);
      const fixed = p.const ?? (p.enum?.length === 1 ? p.enum[0] : undefined);
      if (fixed !== undefined) score += (value as Record<string, unknown>)[name] === fixed ? 3 : -3;
    }
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/** A starting value for a schema: its example, default, the branch's constants, or empty. */
export function emptyValue(spec: Spec, schema: Schema): Json {
  const r = resolve(spec, schema);
  if (r.example !== undefined) return r.example;
  if (r.default !== undefined) return r.default;
  if (r.oneOf?.[0]) return emptyValue(spec, r.oneOf[0]);
  if (typeOf(r) === "object") {
    const out: Record<string, Json> = {};
    for (const [name, prop] of Object.entries(r.properties ?? {})) {
      const p = resolve(spec, prop);
      const fixed = p.const ?? (p.enum?.length === 1 ? p.enum[0] : undefined);
      if (fixed !== undefined) out[name] = fixed;
      else if (r.required?.includes(name)) out[name] = emptyValue(spec, p);
    }
    return out;
  }
  if (typeOf(r) === "array") return [];
  return undefined;
}

interface FieldProps {
  spec: Spec;
  schema: Schema;
  value: Json;
  onChange(value: Json): void;
  label: string;
  required?: boolean;
}

export function SchemaField({ spec, schema, value, onChange, label, required }: FieldProps) {
  const id = useId();
  const r = resolve(spec, schema);
  const mark = required ? <abbr title="required"> *</abbr> : null;
  const hint = r.description ? <span className="hint">{r.description.split("\n")[0]}</span> : null;
  const variants = r.oneOf ?? r.anyOf;
  const nonNull = variants?.filter((v) => resolve(spec, v).type !== "null");
  if (nonNull && nonNull.length === 1 && variants && variants.length === 2) {
    return (
      <SchemaField
        spec={spec}
        schema={{ ...nonNull[0]!, description: r.description }}
        value={value}
        onChange={onChange}
        label={label}
        required={required}
      />
    );
  }
  if (nonNull && nonNull.length > 1) {
    const chosen = pickBranch(spec, nonNull, value);
    return (
      <fieldset className="field">
        <legend>
          {label}
          {mark}
        </legend>
        <label htmlFor={id}>Shape of {label}</label>
        <select id={id} value={chosen} onChange={(e) => onChange(emptyValue(spec, nonNull[Number(e.target.value)]!))}>
          {nonNull.map((branch, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: branches are a fixed list from the contract
            <option key={i} value={i}>
              {branchName(spec, branch, i)}
            </option>
          ))}
        </select>
        <SchemaField
          spec={spec}
          schema={nonNull[chosen]!}
          value={value}
          onChange={onChange}
          label={`${label} (${branchName(spec, nonNull[chosen]!, chosen)})`}
        />
      </fieldset>
    );
  }
  const type = typeOf(r);
  if (type === "object" && r.properties && Object.keys(r.properties).length > 0) {
    const obj = (value && typeof value === "object" ? value : {}) as Record<string, Json>;
    return (
      <fieldset className="field">
        <legend>
          {label}
          {mark}
        </legend>
        {Object.entries(r.properties).map(([name, prop]) => (
          <SchemaField
            key={name}
            spec={spec}
            schema={prop}
            value={obj[name]}
            label={name}
            required={r.required?.includes(name)}
            onChange={(v) => {
              const next = { ...obj };
              if (v === undefined || v === "") delete next[name];
              else next[name] = v;
              onChange(next);
            }}
          />
        ))}
      </fieldset>
    );
  }
  if (r.enum) {
    return (
      <div className="field">
        <label htmlFor={id}>
          {label}
          {mark}
        </label>
        <select
          id={id}
          value={value === undefined ? "" : String(value)}
          required={required}
          onChange={(e) => onChange(e.target.value === "" ? undefined : r.enum!.find((x) => String(x) === e.target.value))}
        >
          <option value="">(none)</option>
          {r.enum
            .filter((x) => x !== null)
            .map((x) => (
              <option key={String(x)} value={String(x)}>
                {String(x)}
              </option>
            ))}
        </select>
        {hint}
      </div>
    );
  }
  if (type === "boolean") {
    return (
      <div className="field checkbox">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>
          {label}
          {mark}
        </label>
      </div>
    );
  }
  if (type === "string" || type === "integer" || type === "number") {
    const numeric = type !== "string";
    return (
      <div className="field">
        <label htmlFor={id}>
          {label}
          {mark}
        </label>
        <input
          id={id}
          type={numeric ? "number" : "text"}
          value={value === undefined || value === null ? "" : String(value)}
          required={required}
          onChange={(e) => onChange(e.target.value === "" ? undefined : numeric ? Number(e.target.value) : e.target.value)}
        />
        {hint}
      </div>
    );
  }
  if (type === "array" && r.items) {
    const item = resolve(spec, r.items);
    if (item.enum) {
      const list = Array.isArray(value) ? value : [];
      return (
        <fieldset className="field">
          <legend>
            {label}
            {mark}
          </legend>
          {item.enum.map((x) => (
            <label key={String(x)} className="checkbox">
              <input
                type="checkbox"
                checked={list.includes(x)}
                onChange={(e) => onChange(e.target.checked ? [...list, x] : list.filter((y) => y !== x))}
              />
              {String(x)}
            </label>
          ))}
        </fieldset>
      );
    }
  }
  return <JsonField label={label} required={required} value={value} onChange={onChange} hint={r.description} />;
}

function JsonField({
  label,
  required,
  value,
  onChange,
  hint,
}: {
  label: string;
  required?: boolean;
  value: Json;
  onChange(v: Json): void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        {label} (JSON)
        {required ? <abbr title="required"> *</abbr> : null}
      </label>
      <textarea
        id={id}
        rows={3}
        defaultValue={value === undefined ? "" : JSON.stringify(value, null, 2)}
        onBlur={(e) => {
          try {
            onChange(e.target.value.trim() === "" ? undefined : JSON.parse(e.target.value));
          } catch {
            // Left as typed; the raw JSON view shows what will be sent.
          }
        }}
      />
      {hint ? <span className="hint">{hint.split("\n")[0]}</span> : null}
    </div>
  );
}
