// What every page shares: the log-out button and the four-colour deck switch
// (remembered in localStorage, applied as a class on <html> that the card
// renderer and the CSS read).
import { api } from "./api.js";

const FOUR = "cardroom.fourColour";

export function fourColour() {
  return localStorage.getItem(FOUR) === "1";
}

function applyFourColour() {
  document.documentElement.classList.toggle("four-colour", fourColour());
}

applyFourColour();
const toggle = document.getElementById("four-colour");
if (toggle) {
  toggle.checked = fourColour();
  toggle.addEventListener("change", () => {
    localStorage.setItem(FOUR, toggle.checked ? "1" : "0");
    applyFourColour();
    window.dispatchEvent(new CustomEvent("cardroom:deck"));
  });
}

const logout = document.getElementById("logout");
if (logout) {
  logout.addEventListener("click", async () => {
    try {
      await api("/api/accounts/logout/", { method: "POST" });
    } finally {
      window.location.assign("/");
    }
  });
}

// The "Games" menu (a <details>) closes as a menu does: on Escape, with focus
// back on its button, and on a click or focus anywhere else.
const menu = document.querySelector("details.menu");
if (menu) {
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });
  const outside = (event) => {
    if (menu.open && !menu.contains(event.target)) menu.open = false;
  };
  document.addEventListener("click", outside);
  document.addEventListener("focusin", outside);
}
