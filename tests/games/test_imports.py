"""The games package has no import cycles, and hides none in functions."""

import ast
from pathlib import Path

from tests.helpers import REPO

GAMES = REPO / "games"


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, *, top_level: bool) -> set[str]:
    nodes = tree.body if top_level else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("games")}


def test_no_module_of_games_imports_itself_back_through_others() -> None:
    sources = {
        _module(path): ast.parse(path.read_text())
        for path in GAMES.rglob("*.py")
        if "migrations" not in path.parts
    }
    graph = {
        name: {dep for dep in _imports(tree, top_level=True) if dep in sources} - {name}
        for name, tree in sources.items()
    }
    graph = {
        name: {dep for dep in deps if not name.startswith(dep + ".")}
        for name, deps in graph.items()
    }

    def cycle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for dep in graph[node]:
                if dep == start:
                    return [*path, start]
                if dep not in path:
                    stack.append((dep, [*path, dep]))
        return None

    cycles = [c for name in graph if (c := cycle_from(name))]
    assert cycles == []


def test_the_services_import_nothing_of_games_inside_functions() -> None:
    for path in (GAMES / "services").glob("*.py"):
        tree = ast.parse(path.read_text())
        inner = _imports(tree, top_level=False) - _imports(tree, top_level=True)
        assert inner == set(), f"{path.name} imports {inner} inside a function"
