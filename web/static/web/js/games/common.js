// Pieces the three game renderers share: action buttons, card buttons, and
// reading the seat's legal actions (the only moves the page ever offers).
import { el, scrollBox } from "../api.js";
import { cardBack, cardName, cardPicture, cardText } from "../cards.js";

export function legalOf(ctx, type) {
  return ctx.legal.filter((action) => action.type === type);
}

export function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// A button that plays `action` (disabled when it is not among legal_actions).
export function actionButton(ctx, label, action, { key, hint, primary } = {}) {
  const legal = action && ctx.legal.some((candidate) => same(candidate, action));
  return el("button", {
    type: "button",
    class: `button${primary ? "" : " ghost"} action`,
    disabled: !legal || ctx.busy,
    title: hint,
    dataset: { key: key || label, action: action ? JSON.stringify(action) : "" },
    onclick: () => ctx.act(action),
  }, label);
}

// A card button's name: first what the card shows ("J♦", WCAG's label in
// name: a speech-control user says what they see), then the card in words
// (Czech name first with the 32-card deck), then what pressing it does:
// "J♦, jack of diamonds: play". A face-down card shows no text.
export function cardLabel(card, { czech, does } = {}) {
  let shown;
  if (card === null || card === undefined) shown = "face-down card";
  else if (typeof card === "number") shown = String(card);
  else shown = `${cardText(card)}, ${cardName(card, czech)}`;
  return does ? `${shown}: ${does}` : shown;
}

// A card that can be pressed (with the keyboard too): `onpick` runs on press,
// and `does` says what pressing does ("play"); a card picked and unpicked
// (`selected` true or false) is a toggle button. A card that cannot be
// pressed is a picture named by the card, or `label`.
export function cardButton(card, { label, does, onpick, selected, czech, key, extraClass } = {}) {
  const picture = cardPicture(card, { czech });
  if (!onpick) {
    if (label) picture.setAttribute("aria-label", label);
    return el("span", { class: `card-slot ${extraClass || ""}`, dataset: { card: card ?? "" } }, picture);
  }
  // The button carries the name; the picture inside is not read twice.
  picture.setAttribute("aria-hidden", "true");
  return el("button", {
    type: "button",
    class: `card-slot pickable${selected ? " selected" : ""} ${extraClass || ""}`,
    "aria-label": cardLabel(card, { czech, does }),
    "aria-pressed": selected === undefined ? undefined : String(Boolean(selected)),
    dataset: { card: card ?? "", key: key || `card-${card}` },
    onclick: onpick,
  }, picture);
}

// Another seat's hidden hand: card backs, read as one picture ("9 face-down
// cards"), not one "face-down card" per card.
export function faceDownRow(count, className = "cards-row small") {
  return el("div", {
    class: className, role: "img",
    // A hand played out is "no cards", not "0 face-down cards".
    "aria-label": count ? `${count} face-down card${count === 1 ? "" : "s"}` : "no cards",
  }, Array.from({ length: count }, () => {
    const back = cardBack();
    back.setAttribute("aria-hidden", "true");
    return el("span", { class: "card-slot" }, back);
  }));
}

const YOU = " (you)";

// A name's text as a cut box shows it: its first word as text, each word after
// it (with the space before it) a box of its own. The ellipsis cuts text
// letter by letter but hides such a box whole, so it never lands just after a
// space: "random bot 2" was cut to "random …", a gap between the word and the
// ellipsis; it is "random…" now. A name of one word (every username) is cut
// letter by letter as before. Only for a seat's label, which ends where the
// name does: in a sentence (withNames) the hidden word's blank would stand
// between the "…" and the rest of the line, wider than the space it saves.
function nameWords(name) {
  const [first, ...rest] = name.split(/(?<! )(?= )/);
  return [first, ...rest.map((word) => el("span", { class: "name-word" }, word))];
}

// A seat's name as its header shows it: on one line, a name too long for its
// box cut with an ellipsis (CSS), the whole name in the title (a pointer's
// tooltip) and still in the text a screen reader reads. A trailing " (you)"
// stays whole after the cut. ``tag`` is the element, e.g. "a" for a link.
export function seatLabel(name, tag = "span", attrs = {}) {
  const you = name.endsWith(YOU);
  const own = you ? name.slice(0, -YOU.length) : name;
  return el(tag, { ...attrs, class: `seat-label${attrs.class ? ` ${attrs.class}` : ""}`, title: name },
    el("span", { class: "seat-name" }, nameWords(own)),
    you ? el("span", { class: "seat-you" }, YOU) : null);
}

// A sentence with seats' names in it, as the turn bar says it: "<name> to play
// — deal 3." A 150-character name broke over three lines of a phone's bar and
// pushed the board down; there each name is cut with an ellipsis (CSS, the
// `name-cut` class) and the sentence around it stays whole. The renderers
// build their status as a string with `ctx.names`: called with `marked(ctx)`,
// that string carries each name between two private-use characters (never in
// a username), and `withNames` turns it into text and name nodes, the whole
// name in the text a screen reader reads and in the title (a tooltip).
const NAME_START = "\uE000";
const NAME_END = "\uE001";
const MARKED = new RegExp(`${NAME_START}([^${NAME_END}]*)${NAME_END}`, "g");

export function marked(ctx) {
  if (ctx.marked) return ctx;
  return { ...ctx, marked: true, names: (seat) => markName(ctx.names(seat)) };
}

// One name marked for `withNames`, for a sentence that names a person by
// their username rather than by seat (the table's creator in the lobby).
export function markName(name) {
  return `${NAME_START}${name}${NAME_END}`;
}

// The punctuation that belongs to the word before it ("ada, bo…", "ada's").
const TRAILING = /^(?:[,.;:!?…)\u2019\u201d]|'s\b)+/;

// Is this name (marked or not) the viewer's own, "ada (you)"?
export function isYou(name) {
  return name.replace(NAME_END, "").endsWith(YOU);
}

export function withNames(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(MARKED)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    // As on the board, a trailing " (you)" is never cut.
    const name = match[1];
    const you = name.endsWith(YOU);
    const cut = el("span", { class: "name-cut", title: name }, you ? name.slice(0, -YOU.length) : name);
    last = match.index + match[0].length;
    // A cut name is a box of its own, and a line could break right after
    // it: a hint's line began ", basic bot 6…". The comma, full stop or
    // ellipsis after a name stays on its line, glued to the name.
    const glued = text.slice(last).match(TRAILING);
    if (glued) {
      parts.push(el("span", { class: "name-glue" }, cut, you ? YOU : null, glued[0]));
      last += glued[0].length;
    } else {
      parts.push(cut);
      if (you) parts.push(YOU);
    }
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

// A seat's name and its tags ("dealer", "partner"): the tags sit apart by a
// margin on screen, and by a comma for a screen reader.
export function nameWithTags(name, tags) {
  return [seatLabel(name), ...tags.flatMap((tag) => [el("span", { class: "visually-hidden" }, ", "), tag])];
}

export function cardsRow(cards, options = {}) {
  return el("div", { class: "cards-row" }, cards.map((card) => cardButton(card, options)));
}

export function cardList(cards) {
  return (cards || []).map(cardText).join(" ");
}

// A score table, in a box that scrolls sideways when a long match's columns
// are wider than its panel.
export function scoreTable(headers, rows) {
  return scrollBox("Scores", el("table", { class: "scores" },
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((cell, i) =>
      i === 0 ? el("th", { scope: "row" }, cell) : el("td", {}, cell)))))));
}

// Names as a sentence says them: "ada", "ada and bo", "ada, bo and cy"
// (three winners read "ada and bo and cy" before).
export function listNames(names) {
  if (names.length < 3) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function placesText(ctx, outcome, unit) {
  if (!outcome) return "";
  const winners = outcome.winners.map((seat) => ctx.names(seat));
  const verb = winners.length > 1 ? "share the win" : "wins";
  return `${listNames(winners)} ${verb}${unit ? ` (${unit})` : ""}.`;
}

export function resultTable(ctx, scoreLabel) {
  const outcome = ctx.view.outcome;
  const order = outcome.places.map((place, seat) => ({ place, seat }))
    .sort((a, b) => a.place - b.place || a.seat - b.seat);
  return el("div", {},
    el("p", { class: "result-line" }, withNames(placesText(marked(ctx), outcome))),
    scoreTable(["Place", "Player", scoreLabel], order.map(({ place, seat }) =>
      [String(place), seatLabel(ctx.names(seat)), String(outcome.scores[seat])])));
}

// The board's hint while others play, its names marked (shown with withNames).
export function waitingFor(ctx) {
  const toAct = (ctx.view && ctx.view.to_act) || [];
  if (!toAct.length) return "";
  if (ctx.legal.length) return "";
  return `Waiting for ${toAct.map((s) => marked(ctx).names(s)).join(", ")}…`;
}
