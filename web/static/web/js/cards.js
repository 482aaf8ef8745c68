// Cards drawn as SVG: French cards ("QH", "TC") for Alager and Alkort, numbered
// cards for Allegra, and card backs. Colours come from CSS classes (suit-H …),
// so the four-colour deck switch (class "four-colour" on <html>) recolours
// every card without redrawing.

const NS = "http://www.w3.org/2000/svg";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_LABELS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export function rankLabel(card) {
  return RANK_LABELS[card[0]] || card[0];
}

export function suitSymbol(card) {
  return SUITS[card[1]] || "?";
}

// "QH" → "Q♥" for text (the log, buttons).
export function cardText(card) {
  if (card === null || card === undefined) return "a hidden card";
  if (typeof card === "number") return String(card);
  return `${rankLabel(card)}${suitSymbol(card)}`;
}

export function cardName(card, czech) {
  if (typeof card === "number") return `card ${card}`;
  const english = `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]] || card[1]}`;
  return czech && czech[card] ? `${czech[card]} (${english})` : english;
}

// Text with cards in symbols ("swapped 7♥ for Q♠") as a screen reader should
// say it ("swapped seven of hearts for queen of spades"): cardText read back.
const SYMBOL_SUITS = Object.fromEntries(Object.entries(SUITS).map(([code, symbol]) => [symbol, code]));
const SPOKEN = new RegExp(`(10|[2-9JQKA])([${Object.values(SUITS).join("")}])`, "g");
export function spokenCards(text) {
  return String(text).replace(SPOKEN, (_, rank, suit) =>
    cardName(`${rank === RANK_LABELS.T ? "T" : rank}${SYMBOL_SUITS[suit]}`));
}

function frame(root, extra) {
  root.append(svg("rect", {
    x: 1, y: 1, width: 58, height: 82, rx: 6, class: `card-face ${extra || ""}`,
  }));
}

// A French card: its index (rank over suit) in the top corner, a large suit in
// the middle and a small one, upside down, in the bottom corner. The rank is
// written once: a card button's name starts with the text the card shows
// ("J♦, jack of diamonds: play"), so that a person who sees "J" can say it to
// speech control, and a second "J" drawn on the card would not be in the name.
export function frenchCard(card, { czech } = {}) {
  const root = svg("svg", {
    viewBox: "0 0 60 84", class: `card suit-${card[1]}`, role: "img",
    "aria-label": cardName(card, czech), "data-card": card,
  });
  root.append(svg("title", {}, cardName(card, czech)));
  frame(root);
  const rank = rankLabel(card);
  const small = rank.length > 1 ? 17 : 20;
  root.append(svg("text", { x: 6, y: 22, class: "card-rank", "font-size": small }, rank));
  root.append(svg("text", { x: 6, y: 40, class: "card-suit-small", "font-size": 17 }, suitSymbol(card)));
  root.append(svg("text", { x: 36, y: 62, class: "card-suit-big", "font-size": 34, "text-anchor": "middle" }, suitSymbol(card)));
  root.append(svg("text", {
    x: 48, y: 77, class: "card-suit-small", "font-size": 17, "text-anchor": "middle",
    transform: "rotate(180 48 71)",
  }, suitSymbol(card)));
  return root;
}

// An Allegra card: its value, big, once, on a band of colour (low is good).
export function numberCard(value) {
  const band = value <= 0 ? "v-neg" : value <= 3 ? "v-low" : value <= 7 ? "v-mid" : value <= 9 ? "v-high" : "v-top";
  const root = svg("svg", {
    viewBox: "0 0 60 84", class: `card number ${band}`, role: "img",
    "aria-label": `card ${value}`, "data-value": String(value),
  });
  frame(root, "number-face");
  root.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "number-inner" }));
  root.append(svg("text", { x: 30, y: 56, class: "card-number", "font-size": 34, "text-anchor": "middle" }, String(value)));
  return root;
}

export function cardBack(label = "face-down card") {
  const root = svg("svg", { viewBox: "0 0 60 84", class: "card back", role: "img", "aria-label": label });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }));
  root.append(svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, class: "card-back-inner" }));
  root.append(svg("text", { x: 30, y: 51, "font-size": 22, "text-anchor": "middle", class: "card-back-mark" }, "♠"));
  return root;
}

export function cardHole(label = "empty place") {
  const root = svg("svg", { viewBox: "0 0 60 84", class: "card hole", role: "img", "aria-label": label });
  root.append(svg("rect", { x: 2, y: 2, width: 56, height: 80, rx: 6, class: "card-hole" }));
  return root;
}

// Any card value as the right picture.
export function cardPicture(card, options = {}) {
  if (card === null || card === undefined) return cardBack();
  if (typeof card === "number") return numberCard(card);
  return frenchCard(card, options);
}
