"""The legal actions of a seat, in the canonical forms of docs/rules-api.md."""

from __future__ import annotations

from rules.allegra import knock
from rules.allegra.geometry import geometry
from rules.allegra.state import AllegraState, knock_of, to_act
from rules.core import Action


def legal_actions(state: AllegraState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in canonical form (``[]`` off turn)."""
    if seat not in to_act(state):
        return []
    geo = geometry(state.players)
    cards = state.cards
    phase = state.phase
    cell = geo.cell
    if phase == "initial_reveal":
        return [
            {"type": "reveal", "cell": cell(i)}
            for i in geo.area[seat]
            if state.down >> i & 1
        ]
    if phase == "turn_start":
        occupied = [i for i in geo.area[seat] if cards[i] is not None]
        out: list[Action] = []
        if state.discard:
            out = [{"type": "take_discard", "cell": cell(i)} for i in occupied]
        if state.draw or len(state.discard) > 1:
            out.append({"type": "draw"})
        return out or [{"type": "pass"}]
    if phase == "knock_window":
        return [{"type": "knock"}, {"type": "pass"}]
    if phase == "decide_deck_card":
        area = geo.area[seat]
        out = [{"type": "swap", "cell": cell(i)} for i in area if cards[i] is not None]
        hidden = [i for i in area if state.down >> i & 1]
        if hidden:
            out.extend({"type": "discard", "flip": cell(i)} for i in hidden)
        else:
            out.append({"type": "discard"})
        out.extend({"type": "give", "to": k} for k in knockers_of(state))
        return out
    kn = knock_of(state)
    assert kn.knocker is not None
    if phase == "knocker_place":
        choices = knock.k1_choices(geo, cards, state.active, kn.knocker)
        return [{"type": "place", "cell": cell(i)} for i in choices]
    assert kn.k1 is not None
    if phase == "drawer_take":
        choices = knock.k2_choices(geo, cards, state.active, kn.knocker, kn.k1)
        return [{"type": "take", "cell": cell(i)} for i in choices]
    choices = knock.a1_choices(geo, cards, state.active, kn.k1)
    return [{"type": "put", "cell": cell(i)} for i in choices]


def knockers_of(state: AllegraState) -> tuple[int, ...]:
    """The seats that knocked in the window just closed."""
    return () if state.knock is None else state.knock.knockers
