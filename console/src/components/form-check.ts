// A form's own refusal, before anything is sent: each field the browser's constraints refuse (required, type, pattern,
// length) is marked aria-invalid and named in one message ("Email is required."), the first one focused. Forms use
// noValidate, so this message — not the browser's bubble, which names no field to a screen reader — is what is shown.

/** A refusal made in the page: no request was sent (ErrorState shows its message, never "could not be reached"). */
export class FormRefusal extends Error {}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isField = (el: Element): el is Field =>
  el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

/** The field's label as a person reads it: its <label> (without the required mark), else aria-label, else its name. */
function fieldName(el: Field): string {
  const label = el.labels?.[0]?.textContent ?? el.getAttribute("aria-label") ?? el.name;
  const name = label.replace(/\*/g, "").replace(/\s+/g, " ").trim();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function problem(el: Field): string {
  const name = fieldName(el);
  const v = el.validity;
  if (v.valueMissing) return el instanceof HTMLSelectElement ? `Choose ${name.toLowerCase()}.` : `${name} is required.`;
  if (v.typeMismatch) return `${name} must be a valid ${el.type === "email" ? "email address" : el.type === "url" ? "URL" : el.type}.`;
  if (v.patternMismatch) return `${name} must be ${el.title || "in the form shown"}.`;
  if (v.tooShort && "minLength" in el) return `${name} needs at least ${el.minLength} characters.`;
  if (v.tooLong && "maxLength" in el) return `${name} takes at most ${el.maxLength} characters.`;
  return `${name}: ${el.validationMessage}`;
}

/** Checks the form's fields: a refusal naming each invalid one, or undefined when the form may be sent. */
export function checkForm(form: HTMLFormElement): FormRefusal | undefined {
  const fields = Array.from(form.elements).filter(isField);
  for (const el of fields) el.removeAttribute("aria-invalid");
  const invalid = fields.filter((el) => !el.disabled && !el.validity.valid);
  if (invalid.length === 0) return undefined;
  for (const el of invalid) el.setAttribute("aria-invalid", "true");
  invalid[0]?.focus();
  return new FormRefusal(invalid.map(problem).join(" "));
}
