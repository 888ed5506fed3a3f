"""Each command is declared once, in the registry (``tg_git.commands.REGISTRY``): the argument
parser, the dispatch and the hot routes (`tg-git hook ...`, `tg-git statusline`) all come from
it, and the entry point has no list of command names of its own."""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

from tests.support.repos import PROJECT

ENTRY = ("tg_git/cli.py", "tg_git/main.py")


def _registry() -> dict[str, object]:
    from tg_git import commands

    registry: dict[str, object] = getattr(commands, "REGISTRY", {})
    return registry


def test_every_command_has_a_parser_and_a_handler() -> None:
    from tg_git import cli
    from tg_git import commands

    registry = _registry()
    assert registry, "tg_git.commands.REGISTRY lists no command"
    parser = cli.build()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    top = {name for name in registry if " " not in name}
    assert set(sub.choices) == top
    for name in registry:
        handlers = commands.handlers(name)
        assert handlers, name
        for dotted in handlers:
            assert callable(commands.resolve(dotted)), (name, dotted)


def test_the_hot_routes_come_from_the_registry() -> None:
    from tg_git import commands

    hot = {name for name, command in _registry().items() if getattr(command, "hot", "")}
    assert hot == {"hook", "hook agent", "statusline", "usage import"}
    for name in hot:
        found, rest = commands.route([*name.split(), "x"])
        assert found is _registry()[name] and rest == ["x"]
    assert commands.route(["status", "--json"]) == (None, ["status", "--json"])


def _names_said(path: str) -> list[str]:
    """The command names the module spells out as strings (an if-chain's or a pre-route's)."""
    names = {word for name in _registry() for word in name.split()}
    tree = ast.parse((PROJECT / path).read_text(encoding="utf-8"))
    return sorted(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
    )


def test_no_other_dispatch_names_a_command() -> None:
    assert _registry()
    for path in ENTRY:
        assert _names_said(path) == [], path


def test_the_entry_point_is_small() -> None:
    lines = sum(len((PROJECT / path).read_text(encoding="utf-8").splitlines()) for path in ENTRY)
    assert lines < 400, lines


def test_a_git_hook_loads_neither_argparse_nor_a_command_module(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from tg_git.main import main\n"
        "main(['hook', 'no-such-hook'])\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path
    )
    loaded = proc.stdout.split()
    assert "tg_git.githooks.runner" in loaded
    assert "argparse" not in loaded and "tg_git.cli" not in loaded
    assert [m for m in loaded if m.startswith("tg_git.commands.")] == []
