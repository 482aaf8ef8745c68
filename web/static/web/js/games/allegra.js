// Allegra: every player's 4×3 grid in one ring, drawn so that each shared
// column sits between its two owners (seat p's area is its own grid plus
// column 4 of the neighbour on its left), face-down cells as card backs,
// holes where triples left, the draw and discard piles and the drawn card, the
// knock window and the knock exchange step by step.
import { el } from "../api.js";
import { cardBack, cardHole, numberCard } from "../cards.js";
import {
  actionButton, isYou, legalOf, listNames, marked, resultTable, scoreTable, seatLabel, waitingFor, withNames,
} from "./common.js";

let mode = "swap"; // what a cell press does with a drawn card: "swap" or "flip"

const CELL_ACTIONS = ["reveal", "take_discard", "swap", "place", "take", "put"];

function key(cell) {
  return `${cell.seat}-${cell.row}-${cell.col}`;
}

function cellText(ctx, cell) {
  const whose = cell.seat === ctx.seat ? "your" : `${ctx.names(cell.seat)}'s`;
  return `${whose} row ${cell.row + 1}, column ${cell.col + 1}`;
}

// Seats left to right so that every shared column touches both owners:
// descending order, starting so the viewer sits in the middle.
function order(ctx) {
  const n = ctx.view.players;
  const me = ctx.seat === null ? 0 : ctx.seat;
  const start = (me + Math.floor(n / 2)) % n;
  return Array.from({ length: n }, (_, i) => (start - i + n) % n);
}

function inMyArea(ctx, cell) {
  if (ctx.seat === null) return false;
  const n = ctx.view.players;
  return cell.seat === ctx.seat || (cell.seat === (ctx.seat + 1) % n && cell.col === 3);
}

function recentlyRemoved(ctx) {
  const removed = new Map();
  const events = ctx.events || [];
  for (let i = events.length - 1; i >= Math.max(0, events.length - 8); i -= 1) {
    const event = events[i];
    if (event.type === "allegra.turn_ended" && removed.size) break;
    if (event.type === "allegra.round_dealt") break;
    if (event.type === "allegra.triples_removed") {
      event.payload.cells.forEach((cell, j) => removed.set(key(cell), event.payload.cards[j]));
    }
  }
  return removed;
}

function cellActions(ctx) {
  const byCell = new Map();
  for (const action of ctx.legal) {
    let cell = null;
    if (CELL_ACTIONS.includes(action.type)) cell = action.cell;
    else if (action.type === "discard" && action.flip) cell = action.flip;
    if (!cell) continue;
    const list = byCell.get(key(cell)) || [];
    list.push(action);
    byCell.set(key(cell), list);
  }
  return byCell;
}

// What pressing a cell does, said after the cell ("5, your row 1, column 2:
// swap the drawn card in"): the name starts with what the cell shows.
const DOES = {
  reveal: "reveal it", take_discard: "take the discard here", swap: "swap the drawn card in",
  discard: "discard the drawn card and flip this one", place: "place the gift here",
  take: "take this card", put: "put the card here",
};

let effectiveMode = "swap"; // the mode in force for this drawing

// The move a press on a cell makes: with a drawn card, only the chosen kind
// (swap it in, or discard it and flip) — never the other by surprise.
function pickAction(actions) {
  if (!actions || !actions.length) return null;
  return actions.find((a) => (effectiveMode === "flip" ? a.type === "discard" : a.type !== "discard")) || null;
}

function cellNode(ctx, cell, value, actions, removed) {
  const action = pickAction(actions);
  const k = key(cell);
  let picture;
  let label; // the cell in words
  let shown; // what the cell shows: the start of a button's name
  if (value === "down") {
    picture = cardBack("face-down card");
    label = "face-down card";
  } else if (value === null) {
    const gone = removed.get(k);
    picture = cardHole(gone !== undefined ? `triple of ${gone} removed` : "empty place");
    label = gone !== undefined ? `removed ${gone}` : "empty";
  } else {
    picture = numberCard(value);
    label = `card ${value}`;
    shown = String(value);
  }
  const classes = ["cell", cell.col === 3 ? "shared" : "", inMyArea(ctx, cell) ? "mine" : "",
    ctx.view.face_down && ctx.view.face_down.includes(k) ? "was-down" : "",
    removed.has(k) ? "removed" : "", ctx.view.knock && ctx.view.knock.k1 && key(ctx.view.knock.k1) === k ? "protected" : ""];
  const style = `grid-row:${cell.row + 2}`;
  // Each cell says where it is: the grid (a group) names its owner.
  const where = `row ${cell.row + 1}, column ${cell.col + 1}${cell.col === 3 ? " (shared)" : ""}`;
  picture.setAttribute("aria-hidden", "true");
  if (!action) {
    return el("span", {
      class: `card-slot ${classes.join(" ")}`, style, dataset: { cell: k },
      role: "img", "aria-label": `${where}: ${label}`,
    }, picture, removed.has(k) ? el("span", { class: "gone", "aria-hidden": "true" }, `${removed.get(k)}`) : null);
  }
  return el("button", {
    type: "button",
    class: `card-slot pickable target ${classes.join(" ")}`,
    style,
    "aria-label": `${shown || label}, ${cellText(ctx, cell)}: ${DOES[action.type] || action.type}`,
    dataset: { cell: k, key: `cell-${k}` },
    onclick: () => ctx.act(action),
  }, picture);
}

function grids(ctx) {
  const v = ctx.view;
  const byCell = cellActions(ctx);
  const removed = recentlyRemoved(ctx);
  const seats = order(ctx);
  const n = v.players;
  const blocks = seats.map((seat, index) => {
    const cells = [];
    for (let row = 0; row < 3; row += 1) {
      for (let col = 0; col < 4; col += 1) {
        const cell = { seat, row, col };
        cells.push(cellNode(ctx, cell, v.grids[seat][row][col], byCell.get(key(cell)), removed));
      }
    }
    const sharedWith = (seat - 1 + n) % n;
    const wraps = index === seats.length - 1;
    return el("div", {
      class: `grid-block${seat === ctx.seat ? " me" : ""}${v.to_act.includes(seat) ? " to-act" : ""}`,
      dataset: { seat }, role: "group", "aria-label": `${ctx.names(seat)}'s grid`,
    },
    // The header and the foot are as wide as the grid, never wider: a long
    // name is cut (seatLabel), so every grid starts at the same height.
    // The seat's own grid (green) says "You": on a phone "name (you)" left
    // no room for the name. On a phone the points go on a second line of
    // every header (the stylesheet), leaving the grid's whole width to the
    // name: beside them "random bot 2" was cut to "random …".
    el("div", { class: "grid-name" },
      seat === ctx.seat ? el("span", { class: "seat-label", title: ctx.names(seat) }, el("span", { class: "seat-name" }, "You"))
        : seatLabel(ctx.names(seat)),
      el("span", { class: "muted grid-score" }, el("span", { class: "wide-only" }, " · "), `${v.scores[seat]} pts`)),
    el("div", { class: "grid-cells" }, cells),
    // A phone's grid is narrow: the foot says it shortly, leaving room for the name.
    el("div", { class: "grid-foot muted" }, el("span", { class: "wide-only" }, "column 4 shared with "),
      el("span", { class: "narrow-only" }, "col. 4 with "),
      sharedWith === ctx.seat ? el("span", {}, "you") : seatLabel(ctx.names(sharedWith)),
      // The ring's turn back to its first grid: a sign for the eye ("column 4
      // shared with …" already says it), not read out as "anticlockwise arrow".
      wraps && n > 2 ? el("span", { "aria-hidden": "true" }, " ↺") : null));
  });
  // It scrolls sideways on a phone: a keyboard can scroll it too. The number
  // of grids sizes the cells (cardroom.css), so a desktop shows every grid.
  return el("div", { class: `ring-scroll${blocks.length > 2 ? " three-or-more" : ""}`, tabindex: "0", role: "region", "aria-label": "Grids", style: `--grids:${blocks.length}` },
    el("div", { class: "ring" }, blocks));
}

function hidden(node) {
  node.setAttribute("aria-hidden", "true");
  return node;
}

function named(node, label) {
  node.setAttribute("aria-label", label);
  return node;
}

// The piles, each a card's picture over its label: the deck (a card back), the
// discard pile and the out-of-play pile (their top cards face up, or an empty
// card's outline) and the drawn card. The out-of-play pile is there from the
// first move where removed triples go to it, so the felt keeps its height
// when the first triple leaves (cardroom.css keeps the labels two lines high
// on a phone).
function piles(ctx) {
  const v = ctx.view;
  const top = v.discard_pile.length ? v.discard_pile[v.discard_pile.length - 1] : null;
  const gone = v.out_of_play.length ? v.out_of_play[v.out_of_play.length - 1] : null;
  const outOfPlay = v.out_of_play.length || (v.options && v.options.triple_cards_to !== "discard");
  const draw = legalOf(ctx, "draw")[0];
  return el("div", { class: "piles" },
    el("div", { class: "pile" },
      draw
        ? el("button", {
          type: "button", class: "card-slot pickable target", "aria-label": "Draw from the deck",
          dataset: { key: "draw" }, onclick: () => ctx.act(draw),
        }, hidden(cardBack("draw pile")))
        : el("span", { class: "card-slot" }, cardBack("draw pile")),
      el("span", { class: "pile-label" }, `deck ${v.draw_pile}`)),
    el("div", { class: "pile" },
      top === null ? el("span", { class: "card-slot empty-pile" })
        : el("span", { class: "card-slot" }, named(numberCard(top), `top of the discard pile: ${top}`)),
      el("span", { class: "pile-label" }, `discard ${v.discard_pile.length}`)),
    el("div", { class: "pile drawn" },
      v.drawn === null || v.drawn === undefined ? el("span", { class: "card-slot empty-pile" })
        : el("span", { class: "card-slot" }, named(numberCard(v.drawn), `drawn card: ${v.drawn}`)),
      // A long name is cut (seatLabel): the pile stays as wide as its card.
      v.drawn === null || v.drawn === undefined ? el("span", { class: "pile-label" }, "no card drawn")
        : el("span", { class: "pile-label" }, "drawn by ",
          v.active === ctx.seat ? el("span", {}, "you") : seatLabel(ctx.names(v.active)))),
    outOfPlay ? el("div", { class: "pile out-of-play" },
      gone === null ? el("span", { class: "card-slot empty-pile" })
        : el("span", { class: "card-slot" }, named(numberCard(gone), `last card out of play: ${gone}`)),
      el("span", { class: "pile-label" }, `out of play ${v.out_of_play.length}`)) : null);
}

function knockInfo(ctx) {
  const k = ctx.view.knock;
  // Names cut as in the turn bar (withNames).
  const names = marked(ctx).names;
  if (!k) return null;
  const parts = [];
  if (k.knockers === null) {
    parts.push(`Knock window: ${k.pending.length} of ${k.eligible.length} still to answer.`);
    if (k.your_answer) parts.push(`You answered: ${k.your_answer}.`);
  } else if (k.knockers.length) {
    parts.push(`Knocked: ${k.knockers.map((s) => names(s)).join(", ")}.`);
  } else parts.push("Nobody knocked.");
  if (k.knocker !== null && k.knocker !== undefined) {
    // The drawer (the active seat) exchanges with the knocker: say who with whom.
    const drawer = ctx.view.active;
    if (k.knocker === ctx.seat) parts.push(`${names(drawer)} exchanges with you.`);
    else if (drawer === ctx.seat) parts.push(`You exchange with ${names(k.knocker)}.`);
    else parts.push(`${names(drawer)} exchanges with ${names(k.knocker)}.`);
  }
  if (k.hand !== null && k.hand !== undefined) parts.push(`The knocker holds ${k.hand}.`);
  else if (k.hand_hidden) parts.push("The knocker holds a hidden card.");
  if (k.taken !== null && k.taken !== undefined) parts.push(`Taken: ${k.taken}.`);
  return el("p", { class: "info knock-info" }, withNames(parts.join(" ")));
}

// What to do now, after who ended the round, if someone did (the turn bar
// says only "last moves"). Once the match is over there is nothing to do: the
// last round's trigger stays in the view, and the line said "… ended the
// round: last moves." under "Match over".
function hint(ctx) {
  const v = ctx.view;
  if (v.outcome) return "";
  const move = hintFor(ctx);
  if (v.trigger === null || v.trigger === undefined) return move;
  return `${ctx.names(v.trigger)} ended the round: last moves.${move ? ` ${move}` : ""}`;
}

function hintFor(ctx) {
  const v = ctx.view;
  if (!ctx.legal.length) return waitingFor(ctx);
  const top = v.discard_pile[v.discard_pile.length - 1];
  switch (v.phase) {
    case "initial_reveal": return `Reveal a face-down card of your area (${v.reveals_left} left).`;
    case "turn_start": return `Draw from the deck, or press a card of your area to take the ${top} from the discard pile.`;
    case "knock_window": return `${ctx.names(v.active)} drew ${v.drawn}. Knock to claim it, or pass.`;
    case "decide_deck_card": return effectiveMode === "flip"
      ? `Discard the ${v.drawn}: press a face-down card of your area to flip it.`
      : `Press a card of your area to swap the ${v.drawn} into it, or switch to “discard and flip”.`;
    case "knocker_place": return `You knocked: press a cell of your area to place the ${v.drawn ?? "gift"}.`;
    case "drawer_take": return "Take a card from the knocker's area (not the one just placed).";
    case "drawer_place": return "Put the card you took into your area (the card there is discarded).";
    default: return "";
  }
}

function board(ctx) {
  const v = ctx.view;
  if (v.phase !== "decide_deck_card") mode = "swap";
  const actions = [];
  const flips = ctx.legal.some((a) => a.type === "discard" && a.flip);
  const swaps = ctx.legal.some((a) => a.type === "swap");
  effectiveMode = flips && swaps ? mode : flips ? "flip" : "swap";
  if (v.phase === "decide_deck_card" && flips && swaps) {
    actions.push(el("button", {
      type: "button", class: `button ${mode === "swap" ? "" : "ghost"} action`, "aria-pressed": String(mode === "swap"),
      dataset: { key: "mode-swap" }, onclick: () => { mode = "swap"; ctx.redraw(); },
    }, "Swap into a cell"));
    actions.push(el("button", {
      type: "button", class: `button ${mode === "flip" ? "" : "ghost"} action`, "aria-pressed": String(mode === "flip"),
      dataset: { key: "mode-flip" }, onclick: () => { mode = "flip"; ctx.redraw(); },
    }, "Discard and flip"));
  }
  if (legalOf(ctx, "draw").length) actions.push(actionButton(ctx, "Draw from the deck", { type: "draw" }, { key: "draw-btn", primary: true }));
  if (ctx.legal.some((a) => a.type === "discard" && !a.flip)) actions.push(actionButton(ctx, "Discard it", { type: "discard" }, { key: "discard" }));
  if (legalOf(ctx, "knock").length) actions.push(actionButton(ctx, "Knock!", { type: "knock" }, { key: "knock", primary: true }));
  if (legalOf(ctx, "pass").length) actions.push(actionButton(ctx, "Pass", { type: "pass" }, { key: "pass" }));
  for (const give of legalOf(ctx, "give")) {
    actions.push(actionButton(ctx, withNames(`Give it to ${marked(ctx).names(give.to)}`), give, { key: `give-${give.to}` }));
  }
  // The knock line comes and goes with the knock window: under the grids, so
  // they stay where they are when it opens.
  return el("div", { class: "allegra" },
    el("div", { class: "felt allegra-felt" }, piles(ctx)),
    grids(ctx),
    knockInfo(ctx),
    el("p", { class: "hint", id: "action-hint" }, withNames(hint(marked(ctx)))),
    el("div", { class: "actions" }, actions));
}

// Two lines at most on a phone, a clock beside. With several seats to move
// (the knock window) the bar counts them; the hint names them (waitingFor),
// and says who ended the round (hint).
function status(ctx) {
  const v = ctx.view;
  const round = `round ${v.round} of ${v.rounds}`;
  const who = v.to_act.length > 1 ? `${v.to_act.length} players` : v.to_act.map((s) => ctx.names(s)).join("");
  if (v.trigger !== null && v.trigger !== undefined) {
    return ctx.legal.length ? `Your move (last) — ${round}.` : `Last moves: ${who} to move — ${round}.`;
  }
  if (ctx.legal.length) return `Your move — ${round}.`;
  return `${who} to move — ${round}.`;
}

function describe(event, ctx) {
  const p = event.payload;
  const who = ctx.names(p.seat);
  switch (event.type) {
    case "allegra.round_dealt": return `Round ${p.round} dealt; ${ctx.names(p.start_seat)} starts. First discard: ${p.discard}.`;
    case "allegra.card_revealed": return `${who} revealed ${p.card}.`;
    case "allegra.triples_removed": return `Triple removed: ${p.cards.join(", ")} ${p.to === "discard" ? "to the discard pile" : "out of play"}.`;
    case "allegra.discard_taken": return `${who} took the ${p.card} from the discard pile, discarding ${p.replaced}.`;
    case "allegra.deck_reshuffled": return "The discards were shuffled into a new deck.";
    case "allegra.card_drawn": return `${who} drew ${p.card}${p.knock_window && p.knock_window.length ? " — knock window open" : ""}.`;
    case "allegra.knock_answered": return "knock" in p ? `${who} ${p.knock ? "knocked" : "passed"}.` : `${who} answered.`;
    case "allegra.knocks_revealed": return p.knockers.length ? `Knocked: ${p.knockers.map((s) => ctx.names(s)).join(", ")}.` : "Nobody knocked.";
    case "allegra.drawn_card_swapped": return `${who} swapped the ${p.card} in, discarding ${p.replaced}.`;
    case "allegra.drawn_card_discarded": return `${who} discarded the ${p.card}${p.flip ? ` and flipped ${p.flipped}` : ""}.`;
    case "allegra.card_given": return `${who} gave the ${p.card} to ${ctx.names(p.to)}.`;
    case "allegra.knocker_placed": return `${who} placed the ${p.card}${p.hand !== undefined && p.hand !== null ? ` and picked up ${p.hand}` : ""}.`;
    // "your area", not "ada (you)'s area" (a replay names no one "you").
    case "allegra.card_taken": {
      const owner = ctx.names(p.cell.seat);
      return `${who} took ${p.card} from ${isYou(owner) ? "your" : `${owner}'s`} area.`;
    }
    case "allegra.card_put": return `${who} put the ${p.card} in, discarding ${p.replaced}.`;
    case "allegra.knock_hole_filled": return `${who} filled the gap with ${p.card}.`;
    case "allegra.round_end_triggered": return `${ctx.names(p.trigger)} ended the round${p.forced ? " (turn limit)" : ""}: everyone else gets a last turn.`;
    case "allegra.turn_passed": return `${who} could not move and passed.`;
    case "allegra.round_revealed": return "Every card is turned face up.";
    case "allegra.round_scored": return `Round ${p.round} scored: ${p.scores.map((s, seat) => `${ctx.names(seat)} ${s}`).join(", ")}.${p.doubled
      ? ` ${ctx.names(p.trigger)} ended the round without the lowest score: ${p.raw[p.trigger]} doubled to ${p.scores[p.trigger]}.` : ""}`;
    case "allegra.match_ended": return `Match over: ${listNames(p.outcome.winners.map((s) => ctx.names(s)))} win${p.outcome.winners.length > 1 ? "" : "s"}.`;
    default: return null;
  }
}

function seatInfo(ctx, seat) {
  return `${ctx.view.scores[seat]} pts`;
}

function summary(ctx) {
  const results = ctx.view.round_results;
  if (!results.length) return null;
  const n = ctx.view.players;
  const rows = Array.from({ length: n }, (_, seat) => [
    seatLabel(ctx.names(seat)),
    // A doubled trigger's score is already doubled: say from what ("44 (22×2)").
    ...results.map((r) => (r.doubled && r.trigger === seat
      ? `${r.scores[seat]} (${r.raw[seat]}×2)` : String(r.scores[seat]))),
    String(ctx.view.scores[seat]),
  ]);
  const node = el("div", {}, scoreTable(["Player", ...results.map((r) => `R${r.round}`), "Total"], rows));
  node.dataset.title = "Rounds";
  return node;
}

function outcomeLine(ctx) {
  const o = ctx.view.outcome;
  return `${listNames(o.winners.map((s) => ctx.names(s)))} win${o.winners.length > 1 ? "" : "s"} with the lowest total.`;
}

function result(ctx) {
  return resultTable(ctx, "Points");
}

// The knock window asks every eligible seat at once, and another seat's
// answer tells nothing (answers stay hidden until all are in): a seat still
// to answer on the same drawn card faces the same question (table-client.js).
function sameDecision(before, now, seat) {
  return Boolean(before && now && before.phase === "knock_window" && now.phase === "knock_window"
    && before.round === now.round && before.turn === now.turn && before.active === now.active
    && before.drawn === now.drawn && now.knock && now.knock.pending.includes(seat));
}

export default { board, status, describe, seatInfo, summary, outcomeLine, result, sameDecision };
