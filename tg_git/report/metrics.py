"""The ledger for the engines teams already run (``tg-git metrics``): Prometheus text
exposition, a push to a Prometheus Pushgateway, and OTLP/HTTP (JSON) metrics named and
labelled by OpenTelemetry's GenAI and VCS conventions.

The figures are what ``tg-git status`` counts on this work tree's branch (the ledger and the
journal: ``Workspace.events``), per session, agent, model and token class, each event through
``range.tally`` as a receipt counts it. Labels hold ids and names only: the repository's
name, the branch, the session id, the agent, the model, how a figure was counted and the token
class; never a path, a title, a message or a transcript's text. HTTP is the standard
library's, with a short timeout: a push never holds up a commit or an agent for long.
"""

from __future__ import annotations

import base64
import calendar
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from tg_git import __version__
from tg_git.domain import eventlog, prices
from tg_git.domain.errors import TgGitError
from tg_git.repo import gitquery
from tg_git.repo.workspace import Workspace
from tg_git.report import range as ranges
from tg_git.text import messages, term

TIMEOUT = 3.0  # seconds a push may take (connect and answer)
JOB = "tg-git"
NO_HEAD = "HEAD"  # the branch label of a detached HEAD


class Series(NamedTuple):
    """One session's figures for one agent and model (both "" for the estimate)."""

    session: str
    started: str
    agent: str
    model: str
    figures: dict[str, Any]


class Collected(NamedTuple):
    repository: str
    branch: str
    head: str
    series: list[Series]
    budgets: dict[str, int]  # session -> its budget in tokens


def collect(ws: Workspace) -> Collected:
    """Every session's figures on this branch, by agent and model."""
    events = ws.events()
    starts = {str(e.get("id")): e for e in events.values() if e.get("kind") == "session"}
    measured = {str(e.get("session")) for e in events.values() if e.get("kind") == "usage"}
    table: dict[tuple[str, str, str], dict[str, Any]] = {}
    for event in sorted(events.values(), key=lambda e: str(e.get("at", ""))):
        sid = str(event.get("session", ""))
        if sid not in starts or event.get("kind") not in ("commit", "input", "usage"):
            continue
        usage = event.get("kind") == "usage"
        agent, model = (
            (str(event.get("agent", "")), str(event.get("model", ""))) if usage else ("", "")
        )
        row = table.setdefault((sid, agent, model), ranges.zero())
        ranges.tally(row, event, sid in measured)
    series = [
        Series(sid, str(starts[sid].get("at", "")), agent, model, figures)
        for (sid, agent, model), figures in table.items()
    ]
    budgets = {sid: eventlog.count(e, "max_tokens") for sid, e in starts.items()}
    return Collected(
        ws.config.project_name or ws.repo.root.name,
        gitquery.current_branch(ws.repo) or NO_HEAD,
        gitquery.rev_parse(ws.repo, "HEAD") or "",
        series,
        budgets,
    )


# ---- Prometheus text exposition ------------------------------------------------------------------
_HELP = {  # metric metadata, read by machines: English like the metric names
    "tg_git_tokens_total": (
        "counter",
        "Tokens a tg-git session spent, by how they were "
        "counted (estimated or measured) and token class.",
    ),
    "tg_git_cost_usd_total": ("counter", "USD of the measured tokens by tg-git's price table."),
    "tg_git_requests_total": ("counter", "Model requests measured from the agent's logs."),
    "tg_git_commits_total": ("counter", "Commits counted in the session."),
    "tg_git_session_budget_tokens": ("gauge", "The session's token budget."),
}


def _value(text: str) -> str:
    clean = term.mark_line(text)
    return clean.replace("\\", "\\\\").replace('"', '\\"')


def _labels(pairs: Mapping[str, str]) -> str:
    return "{" + ",".join(f'{k}="{_value(v)}"' for k, v in pairs.items()) + "}"


def samples(data: Collected) -> dict[str, list[tuple[dict[str, str], float | int]]]:
    """Each metric's samples: (labels, value)."""
    out: dict[str, list[tuple[dict[str, str], float | int]]] = {name: [] for name in _HELP}
    base = {"repository": data.repository, "branch": data.branch}
    commits: dict[str, int] = {}
    for s in data.series:
        who = {**base, "session": s.session, "agent": s.agent, "model": s.model}
        f = s.figures
        if s.agent or s.model:
            for name in ranges.CLASSES:
                labels = {**who, "source": "measured", "token_type": name}
                out["tg_git_tokens_total"].append((labels, f["measured"][name]))
            out["tg_git_requests_total"].append((who, f["measured"]["requests"]))
            if f["usd_pico"]:
                out["tg_git_cost_usd_total"].append((who, prices.usd(f["usd_pico"])))
        else:
            for name in ranges.ESTIMATED:
                labels = {**who, "source": "estimated", "token_type": name}
                out["tg_git_tokens_total"].append((labels, f["estimated"][name]))
        commits[s.session] = commits.get(s.session, 0) + f["commits"]
    for sid, n in commits.items():
        out["tg_git_commits_total"].append(({**base, "session": sid}, n))
    for sid, tokens in data.budgets.items():
        out["tg_git_session_budget_tokens"].append(({**base, "session": sid}, tokens))
    return out


def exposition(data: Collected) -> str:
    """The Prometheus text format (version 0.0.4)."""
    lines = []
    for name, rows in samples(data).items():
        kind, text = _HELP[name]
        lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}"]
        lines += [f"{name}{_labels(labels)} {value}" for labels, value in rows]
    return "\n".join(lines) + "\n"


# ---- OTLP/HTTP JSON --------------------------------------------------------------------------------
def _attr(key: str, value: str) -> dict[str, Any]:
    return {"key": key, "value": {"stringValue": term.mark_line(value)}}


def _nanos(at: str) -> str:
    try:
        return str(calendar.timegm(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ")) * 10**9)
    except ValueError:
        return "0"


def _points(data: Collected, now: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The token usage histogram's points (count: requests or events; sum: tokens) and the
    cost sum's points."""
    tokens, cost = [], []
    for s in data.series:
        measured = bool(s.agent or s.model)
        common = [
            _attr("tg_git.session.id", s.session),
            _attr("gen_ai.operation.name", "chat"),
            _attr("tg_git.token.source", "measured" if measured else "estimated"),
        ]
        if measured:
            common += [_attr("gen_ai.agent.name", s.agent), _attr("gen_ai.request.model", s.model)]
        classes = ranges.CLASSES if measured else ranges.ESTIMATED
        part = s.figures["measured" if measured else "estimated"]
        count = s.figures["measured"]["requests"] if measured else s.figures["commits"]
        for name in classes:
            kind = "output" if name == "output" else "input"
            tokens.append(
                {
                    "attributes": [
                        *common,
                        _attr("gen_ai.token.type", kind),
                        _attr("tg_git.token.class", name),
                    ],
                    "startTimeUnixNano": _nanos(s.started),
                    "timeUnixNano": now,
                    "count": str(count),
                    "sum": part[name],
                    "bucketCounts": [str(count)],
                    "explicitBounds": [],
                }
            )
        if measured and s.figures["usd_pico"]:
            cost.append(
                {
                    "attributes": common,
                    "startTimeUnixNano": _nanos(s.started),
                    "timeUnixNano": now,
                    "asDouble": prices.usd(s.figures["usd_pico"]),
                }
            )
    return tokens, cost


def otlp(data: Collected) -> dict[str, Any]:
    """An ``ExportMetricsServiceRequest`` in OTLP/JSON."""
    now = str(time.time_ns())
    tokens, cost = _points(data, now)
    cumulative = 2  # AGGREGATION_TEMPORALITY_CUMULATIVE
    metrics = [
        {
            "name": "gen_ai.client.token.usage",
            "unit": "{token}",
            "description": "Tokens spent, as tg-git's ledger counts them.",
            "histogram": {"aggregationTemporality": cumulative, "dataPoints": tokens},
        }
    ]
    if cost:
        metrics.append(
            {
                "name": "tg_git.cost.usage",
                "unit": "USD",
                "description": "USD of the measured tokens by tg-git's price table.",
                "sum": {
                    "aggregationTemporality": cumulative,
                    "isMonotonic": True,
                    "dataPoints": cost,
                },
            }
        )
    resource = [
        _attr("service.name", JOB),
        _attr("vcs.repository.name", data.repository),
        _attr("vcs.ref.head.name", data.branch),
        _attr("vcs.ref.head.type", "branch"),
        _attr("vcs.ref.head.revision", data.head),
    ]
    scope = {"name": "tg-git", "version": __version__}
    return {
        "resourceMetrics": [
            {
                "resource": {"attributes": resource},
                "scopeMetrics": [{"scope": scope, "metrics": metrics}],
            }
        ]
    }


# ---- sending ---------------------------------------------------------------------------------------
def _check_url(url: str) -> None:
    if not url.startswith(("http://", "https://")):
        raise TgGitError.from_key("metrics_bad_url", url=term.mark_line(url))


def _send(url: str, body: bytes, method: str, kind: str, timeout: float) -> None:
    _check_url(url)
    request = urllib.request.Request(url, data=body, method=method, headers={"Content-Type": kind})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            answer.read()
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise TgGitError.from_key(
            "metrics_unsent", url=term.mark_line(url), error=term.mark_line(str(reason))
        ) from None


def _group(name: str, value: str) -> str:
    """One label of a Pushgateway grouping key, base64url-encoded (a branch has slashes)."""
    if not value:
        return f"{name}@base64/="
    return f"{name}@base64/{base64.urlsafe_b64encode(value.encode()).decode()}"


def push_url(url: str, data: Collected) -> str:
    """The Pushgateway's address for this repository and branch's group."""
    return "/".join(
        [
            url.rstrip("/"),
            "metrics/job",
            JOB,
            _group("repository", data.repository),
            _group("branch", data.branch),
        ]
    )


def push(url: str, data: Collected, timeout: float = TIMEOUT) -> int:
    """Replace this repository and branch's group on a Pushgateway; the number of series."""
    text = exposition(data)
    _send(push_url(url, data), text.encode(), "PUT", "text/plain; version=0.0.4", timeout)
    return sum(1 for line in text.splitlines() if line and not line.startswith("#"))


def send_otlp(url: str, data: Collected, timeout: float = TIMEOUT) -> int:
    """POST the metrics to an OTLP/HTTP endpoint (``…/v1/metrics``); the number of points."""
    body = otlp(data)
    _send(url, json.dumps(body).encode(), "POST", "application/json", timeout)
    scope = body["resourceMetrics"][0]["scopeMetrics"][0]["metrics"]
    return sum(len(m.get("histogram", m.get("sum", {}))["dataPoints"]) for m in scope)


def after_commit(ws: Workspace, emit: Callable[[str], None]) -> int:
    """The opt-in push after a commit (``[export]`` in the config): to each address set, in
    at most ``export.timeout`` seconds each; a failure is one line (``emit``), never an error.
    The number of addresses reached."""
    config = ws.config
    targets = [(push, config.export_push), (send_otlp, config.export_otlp)]
    targets = [(send, url) for send, url in targets if url]
    if not targets:
        return 0
    data = collect(ws)
    reached = 0
    for send, url in targets:
        try:
            send(url, data, config.export_timeout)
            reached += 1
        except TgGitError as exc:
            said = messages.text(config.language, "metrics_not_blocked")
            emit(f"tg-git: {exc.text(config.language)} ({said})")
    return reached


def names(data: Collected) -> Sequence[str]:
    """Every label value the metrics carry (for a reader checking what leaves the machine)."""
    return sorted(
        {v for rows in samples(data).values() for labels, _ in rows for v in labels.values()}
    )
