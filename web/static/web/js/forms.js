// What the account forms share: a refusal's message in words, and the fields
// it is about marked invalid.

// The fields a refusal is about: marked invalid and described by the message
// (as well as any hint they had), and the first of them (or `focus`) gets
// focus, so a screen reader hears which field to fix and a keyboard is
// already there.
export function markInvalid(form, error, names, focus) {
  let first = focus ? form.elements[focus] : null;
  for (const input of form.querySelectorAll("input")) {
    const hint = (input.getAttribute("aria-describedby") || "").split(" ")
      .filter((id) => id && id !== error.id);
    const bad = names.includes(input.name);
    if (bad) hint.push(error.id);
    input.setAttribute("aria-invalid", String(bad));
    if (hint.length) input.setAttribute("aria-describedby", hint.join(" "));
    else input.removeAttribute("aria-describedby");
    if (bad && !first) first = input;
  }
  if (first) first.focus();
}

// A refusal's field errors as one line: "Password: This password is too short."
// `labels` names fields the way the form does (default: the field's name).
export function fieldErrors(err, labels = {}) {
  const details = err.body && err.body.errors;
  if (!details || typeof details !== "object") return err.message;
  const lines = [];
  for (const [field, problems] of Object.entries(details)) {
    const text = Array.isArray(problems) ? problems.join(" ") : String(problems);
    const label = labels[field] || `${field.charAt(0).toUpperCase()}${field.slice(1)}`;
    lines.push(field === "non_field_errors" || field === "detail" ? text : `${label}: ${text}`);
  }
  return lines.join(" ") || err.message;
}

// The names of the refusal's fields that this form has.
export function refusedFields(form, err) {
  return Object.keys((err.body && err.body.errors) || {}).filter((name) => form.elements[name]);
}
