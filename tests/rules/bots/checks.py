"""The checks every game's bots pass: legal, deterministic, blind to unseen cards.

``play_match`` plays one seeded match between policies and yields every
decision; the ``check_*`` functions assert what docs/architecture.md promises of a
bot over such matches. Each game's ``test_<game>.py`` calls them with its
levels, player counts, options and seeds, and keeps its game-specific tests.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from rules.bots import BotInput, Policy, bot_input
from rules.core import Action, Event, Game

# One decision of a match: (state, events so far, seat, the seat's input, action).
Decision = tuple[Any, list[Event], int, BotInput, Action]


def play_match(
    game: Game[Any],
    policies: Sequence[Policy],
    seed: int | str,
    options: Mapping[str, Any] | None = None,
    *,
    any_order: bool = True,
) -> Iterator[Decision]:
    """A whole match; yields (state, events, seat, input, action) at every decision.

    With ``any_order``, when several seats are to act (a knock window), a random
    one answers first, so bots answer out of turn in every order; without it the
    first seat listed acts, and no number is drawn for the choice.
    """
    events = game.start(len(policies), dict(options or {}), seed=seed)
    state = game.replay(events)
    rng = random.Random(seed)
    while to_act := game.to_act(state):
        seat = rng.choice(to_act) if any_order else to_act[0]
        inp = bot_input(game, state, events, seat)
        action = policies[seat].choose(inp, rng)
        yield state, events, seat, inp, action
        state, new = game.apply(state, seat, action)
        events = [*events, *new]


def check_legal_play(
    game: Game[Any],
    players: int,
    bot: Policy,
    opponent: Policy,
    *,
    matches: int,
    seed: str,
    options: Sequence[Mapping[str, Any]] = ({},),
    any_order: bool = True,
) -> Counter[str]:
    """``bot`` against ``opponent`` over seeded matches: every choice is legal.

    Match ``m`` is seeded ``f"{seed}-{m}"``, plays ``options[m % len(options)]``,
    and seats ``bot`` on the seats of the parity of ``m`` (so it both opens and
    answers). Returns how often each action type was chosen, for the caller to
    check that the matches went the way it meant.
    """
    kinds: Counter[str] = Counter()
    for m in range(matches):
        policies = [bot if s % 2 == m % 2 else opponent for s in range(players)]
        plays = play_match(
            game,
            policies,
            f"{seed}-{m}",
            options[m % len(options)],
            any_order=any_order,
        )
        for _state, _events, seat, inp, action in plays:
            assert action in inp.legal, f"seat {seat} chose {action}, not legal"
            kinds[action["type"]] += 1
    return kinds


def check_deterministic(
    game: Game[Any], bot: Policy, plays: Iterable[Decision], *, decisions: int = 12
) -> None:
    """Given the same rng, ``bot`` chooses the same at ``decisions`` real choices.

    The second choice is made from a freshly built input, so a bot that kept
    hidden state between calls, or changed its input, is caught as well.
    """
    checked = 0
    for state, events, seat, inp, _ in plays:
        if len(inp.legal) == 1:
            continue
        first = bot.choose(inp, random.Random(5))
        again = bot.choose(bot_input(game, state, events, seat), random.Random(5))
        assert first == again, f"decision {checked}: {first} then {again}"
        checked += 1
        if checked == decisions:
            return
    raise AssertionError(f"only {checked} of {decisions} decisions were choices")


def check_no_peeking(
    game: Game[Any],
    bot: Policy,
    matches: Iterable[Iterable[Decision]],
    *,
    rng: random.Random,
    every: int = 1,
    limit: int | None = None,
) -> int:
    """Reshuffling the cards a seat cannot see never changes ``bot``'s choice.

    At every ``every``-th decision of each match that is a real choice, the
    unseen cards are resampled (``game.resample_unseen``); the seat's view,
    legal actions and history must not change, nor the bot's choice under the
    same rng. Returns how many compared decisions had cards renamed by the
    resample (one that renamed nothing proves nothing), stopping at ``limit``;
    the caller asserts enough were.
    """
    renamed = 0
    for plays in matches:
        for n, (state, events, seat, inp, _) in enumerate(plays):
            if n % every or len(inp.legal) == 1:
                continue
            alt_events = game.resample_unseen(events, seat, rng)
            alt_state = game.replay(alt_events)
            alt = bot_input(game, alt_state, alt_events, seat)
            assert alt.view == inp.view and alt.legal == inp.legal
            assert alt.history == inp.history
            mine = bot.choose(inp, random.Random(n))
            theirs = bot.choose(alt, random.Random(n))
            assert mine == theirs, f"decision {n} of seat {seat} peeked"
            renamed += alt_state != state
            if renamed == limit:
                return renamed
    return renamed
