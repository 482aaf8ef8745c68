"""End-to-end engine speed through the arena: whole matches with bots choosing.

Usage: ``python bench/arena_speed.py [--matches 20] [--level random]``

Unlike ``rules_playouts.py`` (decide + evolve only), this times everything a
simulated match does: views, legal actions, redacted histories, bot choices
and the rules. The figure is given next to the same pure-Python baseline as
``rules_playouts.py``, measured in the same run, since the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_playouts import baseline_ops_per_second  # noqa: E402 (beside this file)

from rules.arena import run_arena  # noqa: E402

TABLES = {"alager": 4, "alkort": 4, "allegra": 4}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--level", default="random", choices=["random", "basic"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    base = baseline_ops_per_second()
    out: dict = {"baseline_replace_ops_per_second": round(base), "games": {}}
    for game, players in TABLES.items():
        result = run_arena(game, [args.level] * players, args.matches, seed=1)
        rate = result.actions / result.seconds
        out["games"][game] = {
            "players": players,
            "bots": args.level,
            "actions": result.actions,
            "actions_per_second": round(rate),
            "ratio_to_baseline": round(rate / base, 4),
        }
    if args.json:
        print(json.dumps(out))
        return out
    print(f"baseline (dataclasses.replace): {base:,.0f} ops/s")
    for game, r in out["games"].items():
        print(
            f"{game:8} {r['players']} {r['bots']} bots: {r['actions_per_second']:>8,} "
            f"actions/s end to end ({r['actions']} actions; "
            f"{r['ratio_to_baseline']:.3f} x baseline)"
        )
    return out


if __name__ == "__main__":
    main()
