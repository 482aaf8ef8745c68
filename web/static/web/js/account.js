// The account page: change the password (this browser stays logged in), and
// revoke the API token (accounts API: /password/ and DELETE /token/).
import { api, showError } from "./api.js";
import { fieldErrors, markInvalid, refusedFields } from "./forms.js";

const LABELS = { old_password: "Current password", new_password: "New password" };

const form = document.getElementById("password-form");
const error = document.getElementById("password-error");
const done = document.getElementById("password-done");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(error, "");
  done.textContent = "";
  markInvalid(form, error, []);
  const data = new FormData(form);
  const body = {
    old_password: String(data.get("old_password") || ""),
    new_password: String(data.get("new_password") || ""),
  };
  const missing = Object.keys(body).filter((name) => !body[name]);
  if (missing.length) {
    showError(error, `Enter your ${missing.map((name) => LABELS[name].toLowerCase()).join(" and ")}.`);
    markInvalid(form, error, missing);
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    await api("/api/accounts/password/", { method: "POST", body });
    form.reset();
    done.textContent = "Your password is changed. Other browsers are logged out, and your API token is revoked.";
    tokenState(false);
  } catch (err) {
    showError(error, fieldErrors(err, LABELS));
    const named = refusedFields(form, err);
    // A wrong current password is about no field of the answer: it is that one.
    markInvalid(form, error, named.length ? named : ["old_password"]);
  } finally {
    button.disabled = false;
  }
});

const revoke = document.getElementById("token-revoke");
const tokenError = document.getElementById("token-error");
const state = document.getElementById("token-state");

function tokenState(has) {
  state.dataset.hasToken = has ? "1" : "0";
  state.textContent = has ? "You have an API token." : "You have no API token.";
  revoke.disabled = !has;
}

revoke.addEventListener("click", async () => {
  showError(tokenError, "");
  revoke.disabled = true;
  try {
    await api("/api/accounts/token/", { method: "DELETE" });
    tokenState(false);
    state.textContent = "Your API token is revoked. Ask for a new one when you need it.";
    state.focus();
  } catch (err) {
    showError(tokenError, err.message);
    revoke.disabled = false;
  }
});
