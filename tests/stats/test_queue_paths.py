"""Every way of finishing a table queues it for its count: the one place that
sets a table's status to finished is ``games.services.recording.record``,
which sends ``games.signals.table_finishing`` inside the transaction (the
statistics' queue row is written there), and the simulator that stores
finished matches for tests and benchmarks queues its tables itself. A new
place that finishes tables fails this test until it does the same."""

from __future__ import annotations

import ast

from tests.helpers import REPO

SOURCES = ("accounts", "config", "games", "stats", "tournaments", "web")

#: Where a table's status is set to finished, and why that queues the table.
ALLOWED = {
    "games/services/recording.py",  # sends table_finishing in the transaction
    "stats/simulate.py",  # bulk-inserts its PendingTable rows with the tables
}


def _sets_finished(node: ast.AST) -> bool:
    """``x.status = TableStatus.FINISHED`` or ``status=TableStatus.FINISHED``
    as an argument of anything but a filter."""

    def finished(value: ast.AST | None) -> bool:
        return (
            isinstance(value, ast.Attribute)
            and value.attr == "FINISHED"
            and isinstance(value.value, ast.Name)
            and value.value.id == "TableStatus"
        )

    if isinstance(node, ast.Assign):
        return finished(node.value) and any(
            isinstance(t, ast.Attribute) and t.attr == "status" for t in node.targets
        )
    if isinstance(node, ast.Call):
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        if name in {"filter", "exclude", "get", "Q", "first", "exists"}:
            return False
        return any(k.arg == "status" and finished(k.value) for k in node.keywords)
    return False


def test_only_the_known_places_set_a_table_finished() -> None:
    found = set()
    for top in SOURCES:
        for path in (REPO / top).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            if any(_sets_finished(node) for node in ast.walk(tree)):
                found.add(str(path.relative_to(REPO)))

    assert found == ALLOWED


def test_the_check_sees_both_shapes() -> None:
    tree = ast.parse(
        "table.status = TableStatus.FINISHED\n"
        "Table.objects.filter(pk=1).update(status=TableStatus.FINISHED)\n"
        "Table.objects.filter(status=TableStatus.FINISHED)\n"
    )
    nodes = [n.value if isinstance(n, ast.Expr) else n for n in tree.body]
    assert [_sets_finished(n) for n in nodes] == [True, True, False]
