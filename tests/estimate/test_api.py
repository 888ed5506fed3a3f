"""The Python API the contract gives, used by benchmarks:
``tg_git.estimate.estimate_tokens(text: str, path: str | None = None, profile: str = "o200k")``."""

from __future__ import annotations

import inspect
import subprocess
import sys


def test_the_contract_import_works_as_written() -> None:
    from tg_git.estimate import estimate_tokens
    from tg_git.estimate.estimator import estimate_tokens as inner

    assert estimate_tokens is inner
    params = inspect.signature(estimate_tokens).parameters
    assert list(params)[:3] == ["text", "path", "profile"]
    assert params["path"].default is None and params["profile"].default == "o200k"
    text = "def main():\n    return 42\n"
    assert estimate_tokens(text) == inner(text, None, "o200k") > 0
    assert estimate_tokens(text, "main.py", "o200k") > 0


def test_the_package_stays_cheap_for_the_hooks() -> None:
    """Importing the package loads no estimator (the hooks import the estimator module
    itself); the name is resolved when it is first asked for, and unknown names still fail."""
    code = (
        "import sys, tg_git.estimate as e\n"
        "assert 'tg_git.estimate.estimator' not in sys.modules, 'loaded early'\n"
        "from tg_git.estimate import estimate_tokens\n"
        "assert 'tg_git.estimate.estimator' in sys.modules\n"
        "from tg_git.estimate import estimator, profiles\n"
        "try:\n"
        "    e.no_such_name\n"
        "except AttributeError:\n"
        "    print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr
