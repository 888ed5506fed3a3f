"""The commands tg-git writes into the agents' settings, run by the real Claude Code, Codex,
Gemini and Copilot CLIs against the scripted model server: one table of scenarios, each a
function with its own docstring in the module that names its subject. ``shared_install``:
the shared install's portable `tg-git` found through PATH, absent, or written bare.
``command_text``: the text each CLI runs (Gemini's loader expands variables; a folder
with an apostrophe; a tg-git that is only a shell function). ``exit_status``: a hook that
fails blocks no turn."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.realagents import command_text as text
from tests.realagents import exit_status as status
from tests.realagents import shared_install as shared
from tests.realagents.modelserver import ModelServer

AGENTS = ("claude", "codex", "gemini", "copilot")
Case = tuple[Callable[..., None], dict[str, Any]]
CASES: list[Case] = [
    (shared.claude_code_runs_the_shared_hooks_through_the_tg_git_on_its_path, {}),
    (shared.codex_runs_the_shared_hooks_through_the_tg_git_on_its_path, {}),
    (shared.gemini_runs_the_shared_hooks_through_the_tg_git_on_its_path, {}),
    (shared.copilot_runs_the_shared_hooks_through_the_tg_git_on_its_path, {}),
    (shared.claude_code_without_tg_git_runs_a_whole_turn_and_records_one_sentence, {}),
    (shared.codex_without_tg_git_runs_a_whole_turn_and_shows_every_hook_completed, {}),
    (shared.gemini_without_tg_git_runs_a_whole_turn_and_shows_one_sentence, {"function": False}),
    (shared.gemini_without_tg_git_runs_a_whole_turn_and_shows_one_sentence, {"function": True}),
    (shared.copilot_without_tg_git_runs_a_whole_turn_unblocked, {}),
    (shared.bare_tg_git_commands_fail_in_claude_code_where_tg_git_is_absent, {}),
    (shared.bare_tg_git_commands_fail_in_codex_where_tg_git_is_absent, {}),
    (shared.bare_tg_git_commands_block_gemini_s_prompt_where_tg_git_is_absent, {}),
    (shared.bare_tg_git_commands_block_copilot_s_tool_calls_where_tg_git_is_absent, {}),
    (shared.claude_code_s_status_line_is_the_gauge_or_one_sentence, {"present": True}),
    (shared.claude_code_s_status_line_is_the_gauge_or_one_sentence, {"present": False}),
    *[(text.which_agents_expand_variables_in_a_hook_command, {"agent": a}) for a in AGENTS],
    *[
        (text.a_folder_named_with_an_apostrophe_and_a_space_blocks_no_tool_call, {"agent": a, "flags": f})
        for a, f in [(a, ["--shared"]) for a in AGENTS] + [("gemini", [])]
    ],
    *[
        (text.a_tg_git_that_is_only_a_shell_function_reaches_which_hook_shell, {"agent": a, "exported": e})
        for a in AGENTS
        for e in (False, True)
    ],
    *[
        (status.a_failing_hook_blocks_no_prompt_and_no_tool_call, {"agent": a, "why": w})
        for a in AGENTS
        for w in ("error", "gone")
    ],
]  # fmt: skip


def _id(case: Case) -> str:
    function, params = case
    said = [p if isinstance(p, str) else "+".join(p) or "default" if isinstance(p, list)
            else f"{k}={p}" for k, p in params.items()]  # fmt: skip
    return "-".join([function.__name__, *said])


@pytest.mark.network
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_the_commands_tg_git_writes_as_a_real_cli_runs_them(
    case: Case, repo: Path, agent_home: Path, server: ModelServer, tmp_path: Path
) -> None:
    function, params = case
    given = {"repo": repo, "agent_home": agent_home, "server": server, "tmp_path": tmp_path}
    wanted = inspect.signature(function).parameters
    function(**{k: v for k, v in {**given, **params}.items() if k in wanted})
