// Sign-up and log-in forms: both end with a browser session (the login API
// sets the session and CSRF cookies), then go where the player was heading.
import { api, showError } from "./api.js";
import { fieldErrors, markInvalid, refusedFields } from "./forms.js";

const form = document.getElementById("auth-form");
const error = form.querySelector(".form-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(error, "");
  markInvalid(form, error, []);
  const data = new FormData(form);
  const credentials = {
    username: String(data.get("username") || "").trim(),
    password: String(data.get("password") || ""),
  };
  if (!credentials.username || !credentials.password) {
    showError(error, "Enter a username and a password.");
    markInvalid(form, error, Object.keys(credentials).filter((name) => !credentials[name]));
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
    const named = refusedFields(form, err);
    // A refusal about no field in particular (wrong credentials) is about
    // both; the password is what to type again.
    if (named.length) markInvalid(form, error, named);
    else markInvalid(form, error, ["username", "password"], "password");
  }
});
