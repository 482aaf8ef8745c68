// Sign-up and log-in forms: both end with a browser session (the login API
// sets the session and CSRF cookies), then go where the player was heading.
import { api, showError } from "./api.js";

const form = document.getElementById("auth-form");
const error = form.querySelector(".form-error");

function fieldErrors(err) {
  const details = err.body && err.body.errors;
  if (!details || typeof details !== "object") return err.message;
  const lines = [];
  for (const [field, problems] of Object.entries(details)) {
    const text = Array.isArray(problems) ? problems.join(" ") : String(problems);
    lines.push(field === "non_field_errors" || field === "detail" ? text : `${field}: ${text}`);
  }
  return lines.join(" ") || err.message;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(error, "");
  const data = new FormData(form);
  const credentials = {
    username: String(data.get("username") || "").trim(),
    password: String(data.get("password") || ""),
  };
  if (!credentials.username || !credentials.password) {
    showError(error, "Enter a username and a password.");
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
  }
});
