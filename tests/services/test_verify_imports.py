"""``tg-git verify`` loads what verifying needs: none of ``resume``'s modules (its briefing,
the checkpoint document and its schema, ``tempfile``...), which the command's
module used to import for the other command it holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.repos import add

_LOADED = (
    "import sys\n"
    "from tg_git.main import main\n"
    "try:\n"
    "    code = main(['verify'])\n"
    "finally:\n"
    "    print(' '.join(sorted(sys.modules)), file=sys.__stderr__)\n"
    "sys.exit(code)\n"
)
NOT_NEEDED = (
    "tg_git.services.resume",
    "tg_git.services.checkpoint_document",
    "tg_git.domain.schema",
    "tempfile",
    "dataclasses",  # with inspect, a few ms a verify: its classes are plain ones
)


def test_verify_loads_none_of_resumes_modules(repo: Path) -> None:
    add(repo, "a.py", "def a():\n    return 1\n")
    done = subprocess.run([sys.executable, "-c", _LOADED], cwd=repo, capture_output=True, text=True)
    assert "matches history" in done.stdout, done.stdout + done.stderr
    loaded = set(done.stderr.strip().splitlines()[-1].split())
    assert "tg_git.services.verify" in loaded
    assert not loaded.intersection(NOT_NEEDED), sorted(loaded.intersection(NOT_NEEDED))
