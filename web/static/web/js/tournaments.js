// Tournaments: the list, and one tournament's standings and rounds with links
// to their tables (/api/tournaments/…). Until that API exists on a server the
// page says so instead of failing.
import { api, currentUser, el, games, showError } from "./api.js";

const root = document.getElementById("tournaments-root");
const id = root.dataset.tournament;

function results(data) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data.results)) return data.results;
  return [];
}

function empty(text) {
  return el("p", { class: "empty" }, text);
}

function when(value) {
  return value ? new Date(value).toLocaleString() : "";
}

async function list() {
  let data;
  try {
    data = await api("/api/tournaments/");
  } catch (err) {
    if (err.status === 404) {
      root.replaceChildren(el("section", { class: "panel" }, empty("No tournaments yet: organisers create them in the admin.")));
      return;
    }
    throw err;
  }
  const catalogue = await games();
  const rows = results(data);
  if (!rows.length) {
    root.replaceChildren(el("section", { class: "panel" }, empty("No tournaments yet: organisers create them in the admin.")));
    return;
  }
  root.replaceChildren(el("section", { class: "panel" }, el("ul", { class: "tables", id: "tournament-list" }, rows.map((t) => el("li", { class: "table-row" },
    el("div", {}, el("a", { href: `/tournaments/${t.id}/` }, el("strong", {}, t.name || `Tournament ${t.id}`)),
      el("div", { class: "muted" }, [(catalogue[t.game] || { title: t.game }).title, t.status, t.format, when(t.starts_at || t.start_at)].filter(Boolean).join(" · "))),
    el("span", { class: "muted" }, t.entries !== undefined ? `${Array.isArray(t.entries) ? t.entries.length : t.entries} players` : ""))))));
}

function standingsTable(standings) {
  if (!standings.length) return empty("No standings yet.");
  const extra = Object.keys(standings[0]).filter((k) => !["username", "rank", "place", "user", "player"].includes(k) && typeof standings[0][k] !== "object");
  return el("table", { class: "scores", id: "standings" },
    el("thead", {}, el("tr", {}, ["#", "Player", ...extra.map((k) => k.replaceAll("_", " "))].map((h) => el("th", {}, h)))),
    el("tbody", {}, standings.map((row, i) => {
      const name = row.username || row.player || row.user;
      return el("tr", {},
        el("td", {}, String(row.rank ?? row.place ?? i + 1)),
        el("th", {}, name ? el("a", { href: `/players/${encodeURIComponent(name)}/` }, name) : "—"),
        ...extra.map((k) => el("td", {}, String(row[k] ?? ""))));
    })));
}

function roundsList(rounds) {
  if (!rounds.length) return empty("No rounds yet.");
  return el("ol", { class: "rounds", id: "rounds" }, rounds.map((round, i) => el("li", {},
    el("strong", {}, `Round ${round.number ?? i + 1}`), round.status ? el("span", { class: "muted" }, ` · ${round.status}`) : null,
    el("ul", {}, results(round.tables || []).map((table) => {
      const tid = typeof table === "object" ? (table.id ?? table.table) : table;
      const who = typeof table === "object" && table.seats ? table.seats.map((s) => s.username || "—").join(" · ") : "";
      return el("li", {}, el("a", { href: `/tables/${tid}/` }, `Table #${tid}`), who ? ` ${who}` : "",
        typeof table === "object" && table.status ? el("span", { class: "muted" }, ` (${table.status})`) : null);
    })))));
}

async function detail() {
  let t;
  try {
    t = await api(`/api/tournaments/${id}/`);
  } catch (err) {
    if (err.status === 404) {
      root.replaceChildren(el("h1", {}, "Tournament"), el("section", { class: "panel" }, empty("This tournament does not exist (yet).")));
      return;
    }
    throw err;
  }
  const catalogue = await games();
  const error = el("p", { class: "form-error", role: "alert", hidden: true });
  const me = currentUser();
  const buttons = [];
  const call = async (path) => {
    try {
      await api(`/api/tournaments/${id}/${path}/`, { method: "POST", body: {} });
      await detail();
    } catch (err) {
      showError(error, err.message);
    }
  };
  if (me && ["open", "registration", "upcoming", "planned"].includes(t.status)) {
    buttons.push(el("button", { type: "button", class: "button", onclick: () => call("register") }, "Register"));
    buttons.push(el("button", { type: "button", class: "button ghost", onclick: () => call("withdraw") }, "Withdraw"));
  }
  root.replaceChildren(...[
    el("h1", {}, t.name || `Tournament ${t.id}`),
    el("p", { class: "muted" }, [(catalogue[t.game] || { title: t.game }).title, t.status, t.format, when(t.starts_at || t.start_at)].filter(Boolean).join(" · ")),
    t.description ? el("p", {}, t.description) : null,
    error,
    buttons.length ? el("div", { class: "row" }, buttons) : null,
    el("div", { class: "lobby-grid" },
      el("section", { class: "panel" }, el("h2", {}, "Standings"), standingsTable(results(t.standings || []))),
      el("section", { class: "panel" }, el("h2", {}, "Rounds"), roundsList(results(t.rounds || [])))),
  ].filter(Boolean));
}

(id ? detail() : list()).catch((err) => root.replaceChildren(empty(err.message)));
