"""The package's layers are a rule, not a comment (docs/architecture.md).

Every import of a tg_git module, at the top of a file or inside a function, goes to the same
layer or a lower one; the imports form no cycle; only the git gateway starts a process; the pure
core does no I/O; no module is longer than 600 lines. Each check reads the sources with ``ast``:
nothing is imported, so a violation is reported as the line that makes it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tg_git"

# Lowest first. A module's layer is the first entry its dotted name starts with.
LAYERS: list[tuple[str, ...]] = [
    ("text",),
    ("estimate",),
    ("domain",),
    ("repo",),
    ("usage",),
    ("services",),
    ("agents",),
    ("report",),
    ("githooks",),
    ("cli", "main", "commands", "demo", "__main__"),
]
GATEWAY = "repo.git"
PROCESS_MODULES = {"subprocess", "multiprocessing", "pty", "asyncio"}
PROCESS_CALLS = {"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp"}
# The pure core may read its own package data (the price table, the checkpoint schemas) and
# nothing else: no processes, no files, no network.
IO_MODULES = PROCESS_MODULES | {
    "shutil",
    "tempfile",
    "socket",
    "fcntl",
    "sqlite3",
    "urllib",
    "http",
}
IO_METHODS = {
    "write_text",
    "write_bytes",
    "read_bytes",
    "read_text",
    "open",
    "unlink",
    "mkdir",
    "rename",
    "stat",
    "iterdir",
    "glob",
    "rglob",
    "touch",
    "chmod",
}
OS_PURE = {"urandom", "getpid", "environ", "fspath", "sep", "PathLike"}
MAX_LINES = 600


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name, without the ``tg_git.`` prefix."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name or "__init__"] = path
    return found


MODULES = modules()


def where(name: str) -> str:
    path = MODULES[name]
    return f"tg_git/{path.relative_to(PACKAGE)}" if path.is_relative_to(PACKAGE) else str(path)


def layer_of(name: str) -> int:
    for rank, heads in enumerate(LAYERS):
        if name.split(".")[0] in heads:
            return rank
    raise AssertionError(f"tg_git.{name} belongs to no layer: add its folder to LAYERS")


def imports_of(name: str) -> list[tuple[str, int]]:
    """The tg_git modules ``name`` imports anywhere in its file, with the line of each."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([p for p in up if p] + ([base] if base else []))
                base = f"tg_git.{base}" if base else "tg_git"
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            if target.startswith("tg_git."):
                short = target[len("tg_git.") :]
                if short in MODULES:
                    found.append((short, node.lineno))
    return found


def test_every_module_is_in_a_layer() -> None:
    for name in MODULES:
        if name != "__init__":
            layer_of(name)


def test_no_module_imports_a_higher_layer() -> None:
    wrong = [
        f"{where(name)}:{line}: {name} (layer {layer_of(name)}) "
        f"imports {target} (layer {layer_of(target)})"
        for name in MODULES
        if name != "__init__"
        for target, line in imports_of(name)
        if target != "__init__" and layer_of(target) > layer_of(name)
    ]
    assert not wrong, "\n".join(wrong)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), or a module that
    imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports. A package's ``__init__`` importing its own modules is
    not an edge back (importing ``a.b`` runs ``a/__init__`` first, by Python's rule)."""
    return {
        name: {t for t, _ in imports_of(name) if t != name and not name.startswith(t + ".")}
        for name in MODULES
    }


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_there_is_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_command_imports_another_command() -> None:
    wrong = [
        f"{name} imports {target}"
        for name in MODULES
        if name.startswith("commands.")
        for target, _ in imports_of(name)
        if target.startswith("commands.") and target != name
    ]
    assert not wrong, "\n".join(wrong)


def spawns(name: str) -> list[str]:
    """Where ``name`` imports a process module or calls ``os.system``/``os.exec*``-like."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            heads = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            heads = [(node.module or "").split(".")[0]]
            if heads == ["os"]:
                heads = [f"os.{a.name}" for a in node.names]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            heads = [f"os.{node.attr}"] if node.value.id == "os" else []
        else:
            continue
        for head in heads:
            call = head.removeprefix("os.")
            if head in PROCESS_MODULES or (
                head.startswith("os.")
                and (call in PROCESS_CALLS or call.startswith(("exec", "spawn")))
            ):
                found.append(f"{where(name)}:{node.lineno}: {head}")
    return found


def test_only_the_git_gateway_starts_a_process() -> None:
    wrong = [line for name in MODULES if name != GATEWAY for line in spawns(name)]
    assert not wrong, "\n".join(wrong)
    assert spawns(GATEWAY), "the gateway itself must be found by the check"


def io_in(name: str) -> list[str]:
    """File, process or network I/O in a pure-core module, line by line."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            heads = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            found += [
                f"{where(name)}:{node.lineno}: imports {h}"
                for h in heads
                if h.split(".")[0] in IO_MODULES
            ]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "open":
                found.append(f"{where(name)}:{node.lineno}: open()")
            elif isinstance(func, ast.Attribute):
                owner = func.value
                if isinstance(owner, ast.Name) and owner.id == "os" and func.attr not in OS_PURE:
                    found.append(f"{where(name)}:{node.lineno}: os.{func.attr}()")
                elif func.attr in IO_METHODS and not _package_data(owner):
                    found.append(f"{where(name)}:{node.lineno}: .{func.attr}()")
    return found


def _package_data(node: ast.expr) -> bool:
    """``resources.files(...)...`` or ``Path(__file__)...``: the package's own read-only data."""
    text = ast.unparse(node)
    return text.startswith(("resources.files(", "Path(__file__)"))


def test_the_pure_core_does_no_io() -> None:
    core = [name for name in MODULES if name != "__init__" and layer_of(name) <= layer_of("domain")]
    assert "domain.replay" in core and "domain.decide" in core
    wrong = [line for name in core if not name.startswith("estimate.vocab") for line in io_in(name)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import subprocess\n", ["imports subprocess"]),
        ("import os\nos.replace('a', 'b')\n", ["os.replace()"]),
        ("from pathlib import Path\nPath('x').write_text('y')\n", [".write_text()"]),
        ("with open('x') as f: pass\n", ["open()"]),
        ("import os\nkey = os.urandom(6)\n", []),
    ],
)
def test_the_io_check_sees_io(tmp_path: Path, source: str, found: list[str]) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source)
    MODULES["probe"] = path
    try:
        assert [line.split(": ", 1)[1] for line in io_in("probe")] == found
    finally:
        del MODULES["probe"]


def test_no_module_is_longer_than_600_lines() -> None:
    long = {
        f"tg_git/{path.relative_to(PACKAGE)}": n
        for path in MODULES.values()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long


MAX_COMPLEXITY = 30  # cyclomatic, as radon counts it (each `and`/`or` a branch too)


def test_no_function_is_over_the_complexity_cap() -> None:
    """A function a maintainer can hold in mind: no function or method of the package is
    over ``MAX_COMPLEXITY``; a longer decision is split into named steps."""
    from radon.complexity import cc_visit  # type: ignore[import-untyped, import-not-found, unused-ignore]

    over = []
    for name, path in MODULES.items():
        for block in cc_visit(path.read_text(encoding="utf-8")):
            for each in [block, *getattr(block, "methods", [])]:
                if each.complexity > MAX_COMPLEXITY:
                    over.append(f"{where(name)}:{each.lineno} {each.name} ({each.complexity})")
    assert not over, "over the complexity cap:\n" + "\n".join(over)


# An import inside a function is there because it pays: its line (or one of its lines) says
# what it saves, measured, as "# lazy: <saving>" with a figure (e.g. "# lazy: 2.1 ms").
LAZY = re.compile(r"#\s*lazy:[^\n]*\d")


def unexplained_function_imports(source: str) -> list[int]:
    """The lines of the imports inside a function (or a method) of ``source`` that carry no
    ``# lazy:`` comment with a measured saving."""
    lines = source.splitlines()
    found = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                own = lines[child.lineno - 1 : (child.end_lineno or child.lineno)]
                if not any(LAZY.search(line) for line in own):
                    found.append(child.lineno)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(source), False)
    return found


def test_every_import_inside_a_function_says_what_it_saves() -> None:
    unexplained = [
        f"{where(name)}:{line}"
        for name, path in MODULES.items()
        for line in unexplained_function_imports(path.read_text(encoding="utf-8"))
    ]
    assert not unexplained, (
        f"{len(unexplained)} imports inside functions without a measured '# lazy: <saving>':"
        " move each to the top of its module, or say what it saves\n" + "\n".join(unexplained)
    )


def test_the_import_check_sees_an_unexplained_import() -> None:
    source = (
        "import os\n"
        "def f():\n    import json\n    from re import (\n        compile,  # lazy: 1.5 ms\n    )\n"
        "class C:\n    def g(self):\n        import zlib  # lazy: saves nothing\n"
        "        import csv  # lazy: 0.4 ms\n"
    )
    assert unexplained_function_imports(source) == [3, 9]


# docs/architecture.md's table names every module of its folders, and nothing else: a row's
# modules are the names in backticks at the top level of its "holds" cell (a name inside
# parentheses describes, it does not list); a folder of the entry layer stands for all of it.
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def _top_level_names(cell: str) -> list[str]:
    """The backticked words of a table cell outside parentheses, in order."""
    names, depth, i = [], 0, 0
    while i < len(cell):
        char = cell[i]
        if char == "`":
            end = cell.index("`", i + 1)
            if depth == 0:
                names.append(cell[i + 1 : end])
            i = end + 1
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        i += 1
    return names


def documented_modules(text: str) -> dict[str, set[str]]:
    """Each folder of the architecture table, with the modules its row names (a folder of
    the entry layer, whose row names none, maps to the empty set: it stands for all of it)."""
    rows: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        held = {n.rstrip("/") for n in _top_level_names(cells[2])}
        for folder in _top_level_names(cells[1]):
            name = folder.rstrip("/").removesuffix(".py")
            rows[name] = held if folder.endswith("/") and held else set()
    return rows


def actual_modules() -> dict[str, set[str]]:
    """Each top-level folder or module of the package, with its direct children."""
    found: dict[str, set[str]] = {}
    for name in MODULES:
        head, _, rest = name.partition(".")
        if head == "__init__":
            continue
        found.setdefault(head, set())
        if rest:
            found[head].add(rest.split(".")[0])
    return found


def architecture_drift(doc: str) -> list[str]:
    """What the table and the package disagree on, one line each."""
    documented, actual = documented_modules(doc), actual_modules()
    drift = [f"tg_git/{f}: not in the table" for f in sorted(set(actual) - set(documented))]
    drift += [f"{f}: in the table, not in tg_git/" for f in sorted(set(documented) - set(actual))]
    for folder in sorted(set(actual) & set(documented)):
        if not documented[folder]:
            continue  # the entry layer's folders: one thin module a command
        drift += [
            f"tg_git/{folder}/{m}: not in the table"
            for m in sorted(actual[folder] - documented[folder])
        ]
        drift += [
            f"{folder}/{m}: in the table, not in tg_git/"
            for m in sorted(documented[folder] - actual[folder])
        ]
    return drift


def test_the_architecture_table_names_every_module_and_only_those() -> None:
    drift = architecture_drift(ARCHITECTURE.read_text(encoding="utf-8"))
    assert not drift, "docs/architecture.md's table drifted:\n" + "\n".join(drift)


def test_the_architecture_check_sees_drift() -> None:
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    assert "`term` (" in doc
    assert architecture_drift(doc.replace("`term` (", "`terms` (")) == [
        "tg_git/text/term: not in the table",
        "text/terms: in the table, not in tg_git/",
    ]


def where_drift(section: str) -> list[str]:
    """The names the "where a new piece goes" section puts in a file that the file does not
    define: each bullet's backticked identifiers (``COMMANDS``, ``EVENTS``) against the files
    the same bullet names (a name no file of the bullet defines is drift)."""
    drift = []
    for bullet in re.split(r"\n- ", section):
        words = re.findall(r"`([^`]+)`", bullet)
        files = [w for w in words if w.endswith(".py") and "<" not in w]
        texts = [
            (PACKAGE / f).read_text(encoding="utf-8") for f in files if (PACKAGE / f).is_file()
        ]
        for name in (w for w in words if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", w)):
            defined = rf"(?m)^(?:class |def )?{name}\b(?:[:(]| =|\s*:)"
            if texts and not any(re.search(defined, text) for text in texts):
                drift.append(f"{name}: not defined in {', '.join(files)}")
    return drift


def test_where_a_new_piece_goes_names_what_its_files_define() -> None:
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    section = doc.split("## Where a new piece goes", 1)[1].split("\n## ", 1)[0]
    assert where_drift(section) == []
    assert where_drift("- a table `NOWHERE` in `cli.py`") == ["NOWHERE: not defined in cli.py"]


def test_where_a_new_piece_goes_names_files_that_exist() -> None:
    """Every path the "where a new piece goes" section names exists (a `<name>` part stands
    for any name in an existing folder)."""
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    section = doc.split("## Where a new piece goes", 1)[1].split("\n## ", 1)[0]
    missing = []
    for word in _top_level_names(section.replace("(", " ").replace(")", " ")):
        if "/" not in word and not word.endswith(".py"):
            continue
        path = word.split(" ")[0]
        base = PACKAGE.parent if path.startswith(("tests/", "bench/", "docs/")) else PACKAGE
        target = base / path.split("<", 1)[0] if "<" in path else base / path
        if not target.exists():
            missing.append(word)
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"
