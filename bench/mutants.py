"""A scripted mutation run over the pure core (issue 24): each hand mutation is applied to a
temporary copy of the package, the fast in-process core tests run against it, and the run
says which mutants the tests killed and which survived.

    python bench/mutants.py [--tests PATH ...] [--with-repos] [--only NAME ...] [--list] [--check]

Each mutant names a module (a path in the repository), an exact snippet of its source (found
exactly once, else the mutant is stale and the run stops), its replacement and why it matters:
every one changes what a user, a hook or a reader of the ledger sees. The working tree is
never edited: ``tg_git/``, ``tests/`` and ``pyproject.toml`` are copied to a temporary folder
that the tests then import from (``PYTHONPATH`` and the working directory point there, no
bytecode is written, so a restored module is never read from a stale ``.pyc``).

Why not mutmut (``mutmut`` 3.8 is on PyPI): it mutates every operator and string of a module,
so most of its mutants of this core are messages and equivalent rewrites to triage by hand,
and a full run over ten modules with pytest per mutant does not fit a shared two-core machine
in minutes. A scripted set says why each mutant matters and runs in about a second each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TESTS = ("tests/domain",)
TIMEOUT = 120  # seconds: a mutant that loops is killed by the clock
# tests/domain also holds a few tests that build a real repository (the lead's move kept them
# beside their module); the run leaves those out unless --with-repos: they take seconds each.
PLUGIN = "_tg_mutants_inprocess"
_PLUGIN_TEXT = """
def pytest_collection_modifyitems(config, items):
    git = [i for i in items if {"repo", "plain_repo"} & set(getattr(i, "fixturenames", ()))]
    if git:
        config.hook.pytest_deselected(items=git)
        items[:] = [i for i in items if i not in git]
"""


class Mutant(NamedTuple):
    name: str
    module: str  # the file, relative to the repository
    old: str  # an exact snippet of its source, found once
    new: str
    why: str


LEVELS = "tg_git/domain/levels.py"
DECIDE = "tg_git/domain/decide.py"
BUDGET = "tg_git/domain/budget.py"
EVENTS = "tg_git/domain/eventlog.py"
SESSION = "tg_git/domain/replay.py"
REFS = "tg_git/domain/refs.py"
SCHEMA = "tg_git/domain/schema.py"
PRICES = "tg_git/domain/prices.py"
CONFIG = "tg_git/domain/config.py"
PATHS = "tg_git/domain/layout.py"
GAUGE = "tg_git/domain/gauge.py"

M = Mutant
MUTANTS = (
    # ---- levels: thresholds, the one rounding rule, what the hook prints -----------------
    M("fraction-den", LEVELS, "den = 10 ** len(frac)", "den = 10 ** (len(frac) + 1)",
      "82.5 % read as 8.25 %: a threshold the user wrote with decimals lands elsewhere"),
    M("tokens-at-floor", LEVELS, "return -((-max_tokens * num) // (100 * den))",
      "return (max_tokens * num) // (100 * den)",
      "a level reached a token early when max * pct / 100 is not whole (floor, not ceil)"),
    M("level-halt-gt", LEVELS, 'if used >= limits["halt"]:', 'if used > limits["halt"]:',
      "the halt one token late: exactly 95 % is still force-save"),
    M("level-force-gt", LEVELS, 'if used >= limits["force_save"]:',
      'if used > limits["force_save"]:', "force-save one token late"),
    M("level-warning-gt", LEVELS, 'if used >= limits["warning"]:', 'if used > limits["warning"]:',
      "the warning one token late"),
    M("level-zero-budget-ok", LEVELS, "if max_tokens <= 0:\n        return HALT",
      "if max_tokens <= 0:\n        return OK", "a budget of 0 tokens never halts"),
    M("percent-rounds", LEVELS, "return max(0, used) * 10000 // limit / 100",
      "return round(max(0, used) * 100 / limit, 2)",
      "94.999 % shown as 95.0: a percentage reads as a level not reached"),
    M("shown-rounds", LEVELS, "return 100 * max(0, used) // limit if limit > 0 else 100",
      "return round(100 * max(0, used) / limit) if limit > 0 else 100",
      "the gauge shows 95 % at 949/1,000 (the drift issue 24 names)"),
    M("collapsed-misses-last-pair", LEVELS, "for i in range(len(names) - 1)",
      "for i in range(len(names) - 2)",
      "a budget that puts force-save and halt on one token is accepted"),
    M("budget-max-count-ge", LEVELS, "if max_tokens > MAX_COUNT:", "if max_tokens >= MAX_COUNT:",
      "the largest budget the ledger reads back (10**30) is refused"),
    M("halt-block-unsaved-drops-resume", GAUGE, "lines if saved else lines[:1] + lines[2:]",
      "lines if saved else lines[:1]",
      "a halt whose save failed no longer says how to resume"),
    M("report-warning-from-force-save", GAUGE, "if lvl != OK:",
      "if lvl not in (OK, WARNING):", "no warning block at the warning level"),
    M("report-override-says-next-refused", GAUGE, "if crossed == HALT and not override:",
      "if crossed == HALT:",
      "an override also prints 'the NEXT commit will be refused' (issue 24's survivor)"),
    M("report-override-unannounced", GAUGE,
      'if override:\n        parts.append(messages.text(lang, "override_recorded"))',
      'if False:\n        parts.append(messages.text(lang, "override_recorded"))',
      "a commit past the halt does not say the override was recorded"),
    M("gauge-ignores-context-window", GAUGE, "limit = context.limit or session.max_tokens",
      "limit = session.max_tokens",
      "the gauge prints max_tokens while the level is judged against the context window"),
    M("warning-lists-started-as-remaining", GAUGE, 'session.titles("pending")) or none',
      'session.titles("pending", "in_progress")) or none',
      "the warning's 'Remaining' lists the task in progress too"),
    # ---- decide: the commit decision and the crossing rule -----------------------------
    M("crossing-ge", DECIDE, "crossed = level if RANK[level] > RANK[was] else None",
      "crossed = level if RANK[level] >= RANK[was] else None",
      "a second 'force-save reached' (and save) for every commit in the band"),
    M("crossing-any-level", DECIDE, "crossed = level if RANK[level] > RANK[was] else None",
      "crossed = level if level != levels.OK else None",
      "every commit past the warning counts as a crossing"),
    M("binary-counted", DECIDE, "if c.counted and not c.binary]", "if c.counted]",
      "binary files counted as output tokens"),
    M("excluded-counted", DECIDE, "if c.counted and not c.binary]", "if not c.binary]",
      "excluded files (lock files, tg-git's own) counted"),
    M("refuse-on-recorded-input", DECIDE,
      "and budget.landed_level(committed, before, config) == levels.HALT",
      "and budget.session_level(before, config) == levels.HALT",
      "the crossing commit is refused when recorded input took the session to the halt"),
    M("override-ignored", DECIDE, "if not inp.allow_halt:", "if True:",
      "TG_GIT_ALLOW_HALT=1 does not let a commit through"),
    M("override-without-files-unrecorded", DECIDE, "if counts or override:", "if counts:",
      "an override commit with no counted file leaves no event: the override is not recorded"),
    M("label-plus-zero", DECIDE, 'if len(counts) > 1 else ""', 'if len(counts) > 0 else ""',
      "a one-file commit is labelled 'f.py (+0)'"),
    M("files-counts-skipped", DECIDE, "files=len(counts)", "files=len(inp.counts)",
      "the event's file count includes binary and excluded files"),
    M("input-dropped-as-stale", DECIDE, '_kind(events, ln) == "commit"}',
      '_kind(events, ln) in ("commit", "input")}',
      "recorded input that is only staged is dropped as a stale attempt"),
    M("unstaged-refused-before-any-ledger", DECIDE,
      "if not inp.worktree_ours and (inp.staged is not None or inp.head is not None):",
      "if not inp.worktree_ours:",
      "the first commit of a session is refused for an unstaged new ledger file"),
    M("journal-junk-counted", DECIDE, 'repaired += dropped if name != "journal" else 0',
      "repaired += dropped",
      "junk in the local journal is reported as a ledger repair of the commit"),
    M("estimate-source-ignored", DECIDE, 'measured = config.budget_source != "estimate"',
      "measured = True", "budget.source = \"estimate\" still judges by measured usage"),
    M("other-session-counted", DECIDE, "if before is None or before.id != inp.session_id:",
      "if before is None:", "a ledger whose newest start is another session is counted"),
    # ---- budget: the two budgets' pure figures -----------------------------------------
    M("level-ignores-spend", BUDGET,
      "worse = context.level if RANK[context.level] >= RANK[spend.level] else spend.level",
      "worse = context.level", "a spent dollar budget does not halt the session"),
    M("halted-by-context-first", BUDGET,
      "SPEND if spend.level == levels.HALT else CONTEXT if context.level == levels.HALT else None",
      "CONTEXT if context.level == levels.HALT else SPEND if spend.level == levels.HALT else None",
      "with both at the halt, the hard (spend) halt is not the one named"),
    M("live-before-start-used", BUDGET,
      "usable = live is not None and session.use_measured and live.at >= session.started",
      "usable = live is not None and session.use_measured",
      "a status-line reading older than the session sets its fill"),
    M("live-base-unchecked", BUDGET,
      "base = live.estimated if live.estimated <= session.estimated else 0",
      "base = live.estimated",
      "a live reading taken at a higher estimate lowers the fill below the reading"),
    M("window-live-over-config", BUDGET,
      "if config.budget_context:\n        return config.budget_context",
      "if config.budget_context and not live:\n        return config.budget_context",
      "budget.context = N loses to the agent's reported window"),
    M("window-measured-forgotten", BUDGET,
      "return session.measured_window or session.max_tokens", "return session.max_tokens",
      "the window the agent reported in the ledger is ignored"),
    M("spend-added-twice", BUDGET,
      "tokens = max(session.spend, session.spend_counted, live.spent if live else 0)",
      "tokens = session.spend + session.spend_counted + (live.spent if live else 0)",
      "the same tokens counted by the ledger and the agent's own counter are added"),
    M("spend-cost-min", BUDGET, "pico = max(known) if known else None",
      "pico = min(known) if known else None", "the lower of two costs of the same spend wins"),
    M("spend-percent-first", BUDGET, "max(percents) if percents else None",
      "percents[0] if percents else None",
      "with both spend budgets set, the percentage is the tokens' even when dollars are higher"),
    M("compaction-does-not-lift-halt", BUDGET,
      "if now.measured and now.measured_at >= landed.measured_at:", "if False:",
      "a compaction measured since does not lift a context halt"),
    M("rise-counts-before-landing", BUDGET,
      "if context_budget(lowered, config).used < context_budget(landed, config).used:",
      "if True:",
      "a fill measured since that rises refuses a commit before work landed at the halt"),
    M("unpriced-is-zero-dollars", BUDGET,
      "return pico if pico or (session.spend and not session.spend_unpriced) else None",
      "return pico", "spend of models without a price shows as $0 instead of unknown"),
    # ---- events: the ledger line format, parse, union, salvage, rewrite ----------------
    M("line-separator-raw", EVENTS, '"\\u2028": "\\\\u2028", ', "",
      "a U+2028 in a label breaks the line for every str.splitlines() reader"),
    M("surrogate-raw", EVENTS, 'clean = _SURROGATE.sub("\\ufffd", text)', "clean = text",
      "an undecodable byte in a path makes a line that cannot be written as UTF-8"),
    M("bool-as-int", EVENTS, 'if isinstance(value, bool):\n        return "true" if value else "false"',
      'if False:\n        return "true" if value else "false"',
      "override = True written as Python's True: the ledger no longer parses"),
    M("at-ignored", EVENTS, '"at": fields.pop("at", None) or now()',
      '"at": now() if fields.pop("at", None) else now()',
      "an event's given time is replaced by the clock"),
    M("duplicate-key-silent", EVENTS, "return data if len(data) == len(lines) else None",
      "return data", "a key twice with two bodies is read silently (the last wins)"),
    M("duplicate-key-hand-line-silent", EVENTS,
      "if seen[key] != body:\n                return None", "if False:\n                return None",
      "in a hand-edited ledger a key twice with two bodies is read silently (the first wins)"),
    M("bom-kept", EVENTS, 'text = text.removeprefix("\\ufeff")', "text = text",
      "a ledger saved with a byte-order mark no longer reads"),
    M("crlf-kept", EVENTS, 'return text.replace("\\r\\n", "\\n") if "\\r" in text else text',
      "return text", "a CRLF checkout of the ledger reads differently"),
    M("unknown-kind-accepted", EVENTS,
      'if not isinstance(value, dict) or value.get("kind") not in KINDS:',
      "if not isinstance(value, dict):", "an event of an unknown kind is read as one"),
    M("indented-comment-is-event", EVENTS, 'ln[0] not in "# \\t"', 'ln[0] != "#"',
      "an indented comment line counts as an event line (and as junk to repair)"),
    M("union-last-wins", EVENTS, "for text in texts:\n        distinct.update",
      "for text in reversed(texts):\n        distinct.update",
      "a hand edit of a committed line wins over the journal's first version"),
    M("salvage-keeps-duplicates", EVENTS,
      "if key not in keys:\n                    keys.add(key)\n                    kept.append(line)",
      "if True:\n                    keys.add(key)\n                    kept.append(line)",
      "a repair keeps both versions of a key: the ledger it writes does not parse"),
    M("rewrite-duplicates", EVENTS,
      "out.append(raw)\n            del wanted[raw]", "out.append(raw)\n            wanted[raw]",
      "a rewrite appends again every line the text already had"),
    M("rewrite-keeps-trailing-blanks", EVENTS,
      "while out and not out[-1].strip():\n        out.pop()",
      "while False:\n        out.pop()",
      "lines appended after the text's trailing blank lines (the file grows blanks)"),
    # ---- session: replay -----------------------------------------------------------------
    M("count-bool-accepted", EVENTS, "if type(value) is not int or not 0 <= value <= MAX_COUNT:",
      "if not isinstance(value, int) or not 0 <= value <= MAX_COUNT:",
      "tokens = true read as 1 token"),
    M("count-negative-accepted", EVENTS,
      "if type(value) is not int or not 0 <= value <= MAX_COUNT:",
      "if type(value) is not int or not -MAX_COUNT <= value <= MAX_COUNT:",
      "a hand-edited negative count lowers the spend: tokens spent must stay spent"),
    M("start-blocked-as-in-progress", SESSION,
      '"blocked" if _strings(item.get("blockers")) else "in_progress"', '"in_progress"',
      "a resumed task with blockers is no longer blocked"),
    M("start-note-erases-stopping-point", SESSION,
      "task.stopping_point = note or task.stopping_point", "task.stopping_point = note",
      "`task start` without a note erases where the task stopped"),
    M("block-empty-blocker", SESSION, "if note:\n            task.blockers.append(note)",
      "if True:\n            task.blockers.append(note)",
      "blocking without a reason adds an empty blocker"),
    M("newest-start-by-file-order", SESSION, "starts.sort(key=_at)  #", "starts.sort(key=lambda e: 0)  #",
      "after a union merge the current session is the last line, not the newest start"),
    M("other-sessions-replayed", SESSION, 'if e.get("session") == session.id]', "]",
      "another session's commits count toward this one"),
    M("replay-in-file-order", SESSION, "mine.sort(key=_at)\n", "\n",
      "events replay in file order: a measurement merged in before older commits counts them"),
    M("next-clear-ignored", SESSION, 'if event.get("op") == "clear":', "if False:",
      "`tg-git next --clear` does not clear the next steps"),
    M("measured-base-zero", SESSION, "session.measured_base = session.input + session.output",
      "session.measured_base = 0",
      "estimates recorded before a measurement are counted on top of it (twice)"),
    M("spent-summed", SESSION,
      'session.spend_counted = max(session.spend_counted, count(event, "spent"))',
      'session.spend_counted += count(event, "spent")',
      "the agent's running total is summed: every reading counts the spend again"),
    M("window-forgotten", SESSION,
      'session.measured_window = count(event, "window") or session.measured_window',
      'session.measured_window = count(event, "window")',
      "a measurement that does not report the window forgets the one known"),
    M("used-unclamped", SESSION, "max(0, self.estimated - self.measured_base)",
      "(self.estimated - self.measured_base)",
      "a fill measured after more estimates than a landed copy holds lowers `used`"),
    M("source-mixed-at-equal", SESSION, '"mixed" if self.estimated > self.measured_base',
      '"mixed" if self.estimated >= self.measured_base',
      "a pure measurement is reported as mixed"),
    M("unpriced-not-counted", SESSION, "session.spend_unpriced += sum(tokens)",
      "session.spend_unpriced += 0", "tokens of a model without a price are not reported"),
    # ---- refs: tag names and trailers --------------------------------------------------
    M("component-unbounded", REFS, "if clean == value and 0 < len(value) <= MAX_COMPONENT:",
      "if clean == value and 0 < len(value):", "a long session id makes an unbounded tag name"),
    M("component-empty", REFS, "if clean == value and 0 < len(value) <= MAX_COMPONENT:",
      "if clean == value and len(value) <= MAX_COMPONENT:",
      "an empty session id makes an empty ref component (`...--halt`)"),
    M("component-cut-late", REFS, "clean[: MAX_COMPONENT - 10]", "clean[:MAX_COMPONENT]",
      "a changed component is longer than MAX_COMPONENT"),
    M("component-dots", REFS, 'r"[^A-Za-z0-9_-]+"', 'r"[^A-Za-z0-9_.-]+"',
      "`..` and `.lock` reach a tag name (git refuses it)"),
    M("stamp-unanchored", REFS, r'r"^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z$"',
      r'r"^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z"', "a stamp with anything after it names a tag"),
    M("level-trailer-not-neutral", REFS,
      "line.startswith((SESSION_TRAILER.strip(), LEVEL_TRAILER.strip()))",
      "line.startswith(SESSION_TRAILER.strip())",
      "a message can pose as a save of another level"),
    M("trailer-raw-session", REFS, "f\"{SESSION_TRAILER}{safe_component(session_id)}\\n",
      'f"{SESSION_TRAILER}{session_id}\\n',
      "a newline in a hand-edited session id adds a trailer line of its own"),
    # ---- schema: the checkpoint document's validation and clamp ------------------------
    M("schema-bool-is-integer", SCHEMA,
      '(isinstance(value, bool) and kind != "boolean")', "False",
      "true passes where a count is required"),
    M("schema-newer-extra-refused", SCHEMA,
      'if schema.get("additionalProperties") is False and not lenient:',
      'if schema.get("additionalProperties") is False:',
      "a checkpoint of a newer 1.x version with a new key does not load"),
    M("schema-max-items-ge", SCHEMA, 'if len(value) > schema.get("maxItems", len(value)):',
      'if len(value) >= schema.get("maxItems", len(value)):',
      "a list of exactly maxItems is refused (and every list without one)"),
    M("schema-max-length-ge", SCHEMA, 'if len(value) > schema.get("maxLength", len(value)):',
      'if len(value) >= schema.get("maxLength", len(value)):',
      "a string of exactly maxLength is refused (and every string without one)"),
    M("schema-minimum-le", SCHEMA, 'value < schema.get("minimum", value)',
      'value <= schema.get("minimum", value)', "a count equal to the minimum is refused"),
    M("schema-minor-not-digits", SCHEMA, "return int(rest) if rest.isdigit() and len(rest) <= 4",
      "return int(rest) if len(rest) <= 4", "schema_version \"1.x\" crashes the validator"),
    M("schema-own-version-lenient", SCHEMA,
      "if version in VERSIONS:\n        return errors(data, checkpoint_schema(version))",
      "if False:\n        return errors(data, checkpoint_schema(version))",
      "a 1.0 checkpoint with keys 1.0 does not know is accepted"),
    M("clamp-overlong", SCHEMA, "value[: limit - 1] + \"…\"", "value[:limit] + \"…\"",
      "a clamped string is one character over maxLength: its own checkpoint does not read"),
    M("path-name-lt", SCHEMA, "len(part) <= MAX_NAME", "len(part) < MAX_NAME",
      "a file name of exactly 255 bytes is dropped"),
    # ---- prices ------------------------------------------------------------------------
    M("bedrock-prefix-kept", PRICES, 'return name.rpartition("anthropic.")[2]', "return name",
      "Bedrock's `us.anthropic.claude-...` ids have no price"),
    M("model-case-kept", PRICES, "name = model.strip().lower()", "name = model.strip()",
      "`Claude-Opus-4-6` has no price"),
    M("shortest-key-wins", PRICES, "key = max(found, key=len)", "key = found[0]",
      "gpt-5-mini priced as gpt-5"),
    M("prefix-without-separator", PRICES,
      "any(name.startswith(key + sep) for sep in _SEPARATORS)", "name.startswith(key)",
      "`o30` priced as `o3`: a model the table does not know gets a guessed price"),
    M("cache-read-at-input-price", PRICES, "+ cache_read * price.cache_read",
      "+ cache_read * price.input", "cache reads cost as fresh input"),
    M("to-pico-float", PRICES, "return num * PICO // den", "return int(dollars * PICO)",
      "a dollar budget read through a binary float (1.001 USD read as 1,000,999,999,999 pico)"),
    M("usd-truncated", PRICES, "return round(pico / PICO, 6)", "return pico // PICO",
      "$1.50 shown as $1"),
    # ---- config: from TOML text --------------------------------------------------------
    M("config-bool-is-int", CONFIG, "if isinstance(value, bool) or not isinstance(value, kind):",
      "if not isinstance(value, kind):", "max_tokens = true read as a budget of 1"),
    M("config-halt-100-refused", CONFIG, "<= cfg.halt <= 100:", "<= cfg.halt < 100:",
      "halt = 100 (halt only when full) refused"),
    M("config-warning-zero", CONFIG, "if not 0 < cfg.warning", "if not 0 <= cfg.warning",
      "warning = 0 accepted: every session starts at the warning"),
    M("config-equal-thresholds-refused", CONFIG, "<= cfg.force_save <= cfg.halt",
      "< cfg.force_save < cfg.halt", "force_save = halt (no force-save band) refused"),
    M("config-context-zero", CONFIG, "(type(context) is not int or context <= 0)",
      "(type(context) is not int or context < 0)", "budget.context = 0 accepted"),
    M("config-spend-usd-zero-refused", CONFIG, "not 0 <= usd < 10**9", "not 0 < usd < 10**9",
      "spend_usd = 0 (the documented 'off') refused"),
    M("config-max-count-ge", CONFIG, "if cfg.max_tokens > MAX_COUNT:",
      "if cfg.max_tokens >= MAX_COUNT:", "max_tokens = 10**30 refused"),
    M("config-ledger-counted", CONFIG, "if path in ALWAYS_EXCLUDED or is_ledger_file(path):",
      "if path in ALWAYS_EXCLUDED:", "a per-session ledger file counts as output"),
    M("config-include-empty-excludes-all", CONFIG,
      "if self.include and not matches(self.include):", "if not matches(self.include):",
      "with no include globs nothing counts"),
    M("config-glob-path-only", CONFIG,
      "fnmatch.fnmatchcase(path, g) or fnmatch.fnmatchcase(name, g)",
      "fnmatch.fnmatchcase(path, g)", "`web/package-lock.json` counts (the glob names a file)"),
    # ---- paths -------------------------------------------------------------------------
    M("ledger-dir-nested", PATHS, "return folder == LEDGER_DIR and",
      "return folder.startswith(LEDGER_DIR) and",
      "a file in a folder under .tg-git/ledger/ is taken for a ledger (and is free)"),
    M("ledger-file-prefix-match", PATHS, "if _SAFE_SESSION.fullmatch(session_id):",
      "if _SAFE_SESSION.match(session_id):",
      "a session id like `s1/../../x` names a file outside the ledger folder"),
)  # fmt: skip


def _source(mutant: Mutant, root: Path) -> str:
    """The module's text, checked to hold the mutant's snippet exactly once."""
    path = root / mutant.module
    if not path.is_file():
        raise SystemExit(f"{mutant.name}: no module {mutant.module}")
    text = path.read_text(encoding="utf-8")
    found = text.count(mutant.old)
    if found != 1:
        raise SystemExit(
            f"{mutant.name}: its snippet is in {mutant.module} {found} times, not once"
        )
    return text


def _copy(workdir: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    shutil.copytree(ROOT / "tg_git", workdir / "tg_git", ignore=skip)
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=skip)
    shutil.copy2(ROOT / "pyproject.toml", workdir / "pyproject.toml")
    (workdir / f"{PLUGIN}.py").write_text(_PLUGIN_TEXT, encoding="utf-8")


def _pytest(workdir: Path, tests: list[str], repos: bool) -> tuple[str, str, float]:
    """Run the tests in ``workdir``: ("passed" | "failed" | "error" | "timeout", the first
    failing test, seconds)."""
    env = {**os.environ, "PYTHONPATH": str(workdir), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-rf", "-o", "addopts=",
               "-p", "no:cacheprovider", "-p", "no:xdist", *([] if repos else ["-p", PLUGIN]),
               *tests]  # fmt: skip
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "timeout", "", time.perf_counter() - start
    seconds = time.perf_counter() - start
    failed = re.search(r"^FAILED (\S+)", proc.stdout, re.M)
    outcome = {0: "passed", 1: "failed"}.get(proc.returncode, "error")
    detail = (
        failed[1] if failed else proc.stdout.strip().splitlines()[-1:][0] if proc.stdout else ""
    )
    return outcome, detail, seconds


def _imports_copy(workdir: Path) -> bool:
    """Whether the tests in ``workdir`` import the copied package (not the working tree's)."""
    env = {**os.environ, "PYTHONPATH": str(workdir), "PYTHONDONTWRITEBYTECODE": "1"}
    code = "import tg_git; print(tg_git.__file__)"
    out = subprocess.run([sys.executable, "-c", code], cwd=workdir, env=env,
                         capture_output=True, text=True).stdout  # fmt: skip
    return out.strip().startswith(str(workdir))


def run(mutants: list[Mutant], tests: list[str], repos: bool = False) -> int:
    for mutant in mutants:
        _source(mutant, ROOT)
    with tempfile.TemporaryDirectory(prefix="tg-mutants-") as tmp:
        workdir = Path(tmp)
        _copy(workdir)
        if not _imports_copy(workdir):
            raise SystemExit(
                "the copy is not what the tests import; is tg_git installed non-editable?"
            )
        outcome, detail, seconds = _pytest(workdir, tests, repos)
        if outcome != "passed":
            raise SystemExit(f"the tests fail without a mutant ({outcome}: {detail})")
        print(f"baseline: {' '.join(tests)} pass in {seconds:.1f} s; {len(mutants)} mutants\n")
        survived: list[Mutant] = []
        for mutant in mutants:
            path = workdir / mutant.module
            original = path.read_text(encoding="utf-8")
            path.write_text(original.replace(mutant.old, mutant.new, 1), encoding="utf-8")
            try:
                outcome, detail, seconds = _pytest(workdir, tests, repos)
            finally:
                path.write_text(original, encoding="utf-8")
            verdict = "SURVIVED" if outcome == "passed" else "killed"
            if outcome in ("error", "timeout"):
                verdict = f"killed ({outcome})"
            if outcome == "passed":
                survived.append(mutant)
            print(
                f"{verdict:<16} {mutant.name:<36} {seconds:5.1f}s  {detail if outcome != 'passed' else mutant.why}"
            )
            sys.stdout.flush()
    print(
        f"\n{len(mutants)} mutants: {len(mutants) - len(survived)} killed, {len(survived)} survived"
    )
    for mutant in survived:
        print(f"  survived: {mutant.name} ({mutant.module}): {mutant.why}")
    return 1 if survived else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--tests", nargs="+", default=list(DEFAULT_TESTS),
                        help="test paths, relative to the repository (default: tests/domain)")  # fmt: skip
    parser.add_argument("--with-repos", action="store_true",
                        help="also run the tests that build a real repository")  # fmt: skip
    parser.add_argument("--only", nargs="+", default=[], help="run these mutants only")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--check", action="store_true",
                        help="check that every snippet is in its module once, and exit")  # fmt: skip
    args = parser.parse_args(argv)
    names = {m.name for m in MUTANTS}
    unknown = set(args.only) - names
    if unknown:
        parser.error(f"no mutant named {', '.join(sorted(unknown))}")
    if len(names) != len(MUTANTS):
        raise SystemExit("two mutants share a name")
    mutants = [m for m in MUTANTS if not args.only or m.name in args.only]
    if args.list or args.check:
        for mutant in mutants:
            _source(mutant, ROOT)
            if args.list:
                print(f"{mutant.name:<36} {mutant.module:<26} {mutant.why}")
        if args.check:
            print(f"{len(mutants)} mutants, every snippet found once")
        return 0
    return run(mutants, args.tests, args.with_repos)


if __name__ == "__main__":
    raise SystemExit(main())
