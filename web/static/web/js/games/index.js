// The renderer of each game, by the game's name in the catalogue.
import alager from "./alager.js";
import alkort from "./alkort.js";
import allegra from "./allegra.js";

export const renderers = { alager, alkort, allegra };
