// Sign-up and log-in forms: both end with a browser session (the login API
// sets the session and CSRF cookies), then go where the player was heading.
import { api, showError } from "./api.js";

const form = document.getElementById("auth-form");
const error = form.querySelector(".form-error");

// The fields a refusal is about: marked invalid and described by the message
// (as well as any hint they had), and the first of them gets focus, so a
// screen reader hears which field to fix and a keyboard is already there.
function markInvalid(names, focus) {
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

function fieldErrors(err) {
  const details = err.body && err.body.errors;
  if (!details || typeof details !== "object") return err.message;
  const lines = [];
  for (const [field, problems] of Object.entries(details)) {
    const text = Array.isArray(problems) ? problems.join(" ") : String(problems);
    lines.push(field === "non_field_errors" || field === "detail" ? text
      : `${field.charAt(0).toUpperCase()}${field.slice(1)}: ${text}`);
  }
  return lines.join(" ") || err.message;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(error, "");
  markInvalid([]);
  const data = new FormData(form);
  const credentials = {
    username: String(data.get("username") || "").trim(),
    password: String(data.get("password") || ""),
  };
  if (!credentials.username || !credentials.password) {
    showError(error, "Enter a username and a password.");
    markInvalid(Object.keys(credentials).filter((name) => !credentials[name]));
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    if (form.dataset.mode === "signup") {
      await api("/api/accounts/register/", { method: "POST", body: credentials });
    }
    await api("/api/accounts/login/", { method: "POST", body: credentials });
    window.location.assign(form.dataset.next || "/");
  } catch (err) {
    showError(error, fieldErrors(err));
    button.disabled = false;
    const fields = Object.keys((err.body && err.body.errors) || {});
    const named = fields.filter((name) => form.elements[name]);
    // A refusal about no field in particular (wrong credentials) is about
    // both; the password is what to type again.
    if (named.length) markInvalid(named);
    else markInvalid(["username", "password"], "password");
  }
});
