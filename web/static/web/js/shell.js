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

// A table wider than its box scrolls inside it (a phone's leaderboard,
// standings and score tables, the rules' tables): the edge with more of the
// table beyond it is marked (`more-left`, `more-right`, a shadow in the CSS),
// so a column cut at the edge does not read as the table's last. A phone
// shows no scroll bar until the table is moved. Boxes come and go with the
// pages' redraws: each new one is watched as it appears.
function markEdges(box) {
  const beyond = box.scrollWidth - box.clientWidth;
  box.classList.toggle("more-left", beyond > 1 && box.scrollLeft > 1);
  box.classList.toggle("more-right", beyond > 1 && box.scrollLeft < beyond - 1);
}

const resized = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const box = entry.target.closest(".table-scroll");
    if (box) markEdges(box);
  }
});
const watched = new WeakSet();

function watchScrollBoxes() {
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (watched.has(box)) continue;
    watched.add(box);
    resized.observe(box);
    if (box.firstElementChild) resized.observe(box.firstElementChild);
    box.addEventListener("scroll", () => markEdges(box), { passive: true });
  }
}

watchScrollBoxes();
new MutationObserver(watchScrollBoxes).observe(document.body, { childList: true, subtree: true });
