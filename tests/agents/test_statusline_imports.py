"""What a status-line refresh loads: the refresh after every assistant message, with nothing
new in the ledger since the last one, loads no module it does without (``json``'s Python
layer with ``re``, ``typing``, ``pathlib``, the workspace, the hooks' protocol, the plan
windows when none are reported or set). Counted, not timed: the modules a fresh interpreter
without ``site`` adds while it runs the refresh from this checkout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.repos import tg

ROOT = Path(__file__).resolve().parents[2]
NOT_NEEDED = {"re", "json", "typing", "pathlib", "contextlib", "functools", "enum",
              "tg_git.agents.protocol", "tg_git.usage.planwindows", "tg_git.text.term",
              "tg_git.services.startup", "tg_git.domain.eventlog", "tg_git.domain.errors"}  # fmt: skip


def payload(repo: Path, fill: int) -> str:
    return json.dumps({
        "session_id": "51d7023f-0c1e-4d55-9a5e-0000000000cd", "cwd": str(repo),
        "model": {"id": "claude-opus-4-6"},
        "workspace": {"current_dir": str(repo), "project_dir": str(repo)},
        "cost": {"total_cost_usd": 0.5},
        "context_window": {"total_input_tokens": 90_000, "total_output_tokens": 900,
                           "context_window_size": 1_000_000,
                           "current_usage": {"input_tokens": 5, "output_tokens": 100,
                                             "cache_creation_input_tokens": 500,
                                             "cache_read_input_tokens": fill - 505}},
    })  # fmt: skip


def loaded_by_refresh(repo: Path, fill: int) -> tuple[str, set[str]]:
    """The gauge line, and the modules the refresh loaded (the interpreter's own set apart)."""
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); before = set(sys.modules); "
        "from tg_git.agents.statusline import run; run([]); "
        "sys.stderr.write(' '.join(sorted(set(sys.modules) - before)))"
    )
    proc = subprocess.run([sys.executable, "-E", "-S", "-c", code, "tg_git", "statusline"],
                          cwd=repo, input=payload(repo, fill), capture_output=True, text=True,
                          check=True, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})  # fmt: skip
    return proc.stdout, set(proc.stderr.split())


def test_a_refresh_with_nothing_new_loads_nothing_it_does_without(repo: Path) -> None:
    for fill in (60_000, 61_000):  # the first reading may go into the ledger; then the gauge
        shown = tg(repo, "statusline", input=payload(repo, fill), env={"NO_COLOR": "1"}).stdout
        assert f"{fill // 1000}k/1M" in shown
    line, loaded = loaded_by_refresh(repo, 62_000)
    assert "62k/1M" in line and "claude-opus-4-6" in line
    assert "tg_git.domain.budget" in loaded and "tg_git.repo.readings" in loaded
    assert loaded & NOT_NEEDED == set()
    live = json.loads((repo / ".git" / "tg-git" / "live.json").read_text())
    (entry,) = live["readings"].values()
    assert (entry["used"], entry["cost"]) == (62_000, 500_000_000_000)
