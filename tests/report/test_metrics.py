"""`tg-git metrics`: the exposition checked by `promtool`, pushed to a real Pushgateway that
a real Prometheus scrapes (Debian's packages, on 127.0.0.1), read back with PromQL; the OTLP
body parsed by the OpenTelemetry protocol's own message definitions."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from http.server import HTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.support.agents import MARKER
from tests.support.agents import claude_line
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import status
from tests.support.repos import tg

ENGINES = ("promtool", "prometheus", "prometheus-pushgateway")
PACKAGES = ("prometheus", "prometheus-pushgateway")


def _engines() -> None:
    """Debian's Prometheus and Pushgateway, installed when missing (as root), else a skip."""
    if all(shutil.which(b) for b in ENGINES):
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        pytest.skip("prometheus and prometheus-pushgateway are not installed (apt-get as root)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True, check=False)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", *PACKAGES], env=env, capture_output=True, check=False
    )
    missing = [b for b in ENGINES if shutil.which(b) is None]
    if missing:
        pytest.skip(f"could not install {', '.join(missing)} from the distribution's packages")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as answer:
        data: bytes = answer.read()
        return data


def _wait(check: Any, what: str, proc: subprocess.Popen[bytes]) -> Any:
    """``check()``'s first truthy answer, polling while ``proc`` runs (a server starting, a
    scrape to come); a server that exits fails the test with its output."""
    for _ in range(600):
        if proc.poll() is not None:
            raise AssertionError(f"{what}: the server exited {proc.returncode}")
        try:
            found = check()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what}: never came")


def _measured_repo(repo: Path, tmp_path: Path) -> Path:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(
        claude_line("m1", "r1", fresh=1200, write=3000, read=40000, out=900)
        + claude_line("m2", "r2", fresh=300, read=45000, out=400, model="claude-haiku-4-5")
    )
    tg(repo, "usage", "import", "--agent", "claude", "--transcript", str(transcript))
    (repo / "a.py").write_text("print('a')\n")
    git(repo, "add", "a.py")
    commit(repo, "-m", "add a")
    return repo


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A Pushgateway and a Prometheus scraping it every second, on free ports of 127.0.0.1."""
    _engines()
    gateway_port, prom_port = _port(), _port()
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        "scrape_configs:\n  - job_name: pushgateway\n    honor_labels: true\n"
        f"    static_configs:\n      - targets: ['127.0.0.1:{gateway_port}']\n"
    )
    procs = [
        subprocess.Popen(
            ["prometheus-pushgateway", f"--web.listen-address=127.0.0.1:{gateway_port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=tmp_path,
        ),
        subprocess.Popen(
            [
                "prometheus",
                f"--config.file={config}",
                f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{prom_port}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=tmp_path,
        ),
    ]
    try:
        urls = [f"http://127.0.0.1:{gateway_port}", f"http://127.0.0.1:{prom_port}"]
        for proc, url in zip(procs, urls):
            _wait(lambda u=url: _get(f"{u}/-/ready"), f"{url} ready", proc)
        yield {"gateway": urls[0], "prometheus": urls[1], "process": procs[1]}
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)


@pytest.mark.network
def test_promtool_passes_the_exposition(repo: Path, tmp_path: Path) -> None:
    """`promtool check metrics` finds nothing wrong in `tg-git metrics`."""
    _engines()
    text = tg(_measured_repo(repo, tmp_path), "metrics").stdout
    assert "# TYPE tg_git_tokens_total counter" in text
    check = subprocess.run(
        ["promtool", "check", "metrics"], input=text, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.strip() == "" and check.stderr.strip() == ""  # not even a lint


def _query(prometheus: str, promql: str) -> float | None:
    url = f"{prometheus}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    result = json.loads(_get(url))["data"]["result"]
    return float(result[0]["value"][1]) if result else None


@pytest.mark.network
def test_a_push_reads_back_with_promql(repo: Path, tmp_path: Path, servers: dict[str, Any]) -> None:
    """After `tg-git metrics --push`, Prometheus (scraping the Pushgateway) answers
    a PromQL query with the repository's tokens and USD as `tg-git status` counts them."""
    _measured_repo(repo, tmp_path)
    here = status(repo)
    out = tg(repo, "metrics", "--push", servers["gateway"])
    assert "sent" in out.stdout
    prom = servers["prometheus"]
    tokens = 'sum(tg_git_tokens_total{repository="repo",source="measured"})'
    got = _wait(lambda: _query(prom, tokens), "the pushed tokens", servers["process"])
    assert got == here["spend"]["total"]
    usd = _query(prom, 'sum(tg_git_cost_usd_total{repository="repo"})')
    assert usd == pytest.approx(here["spend"]["usd"], abs=1e-6) and here["spend"]["usd"] > 0
    estimated = _query(prom, 'sum(tg_git_tokens_total{repository="repo",source="estimated"})')
    assert estimated == here["input"] + here["output"]
    by_branch = _query(prom, 'sum by (branch) (tg_git_commits_total{repository="repo"})')
    assert by_branch == here["session"]["commits"]
    raw = _get(f"{servers['gateway']}/metrics").decode()
    assert MARKER not in raw and 'branch="main"' in raw


def test_a_push_to_nothing_is_one_sentence(repo: Path) -> None:
    port = _port()  # nothing listens there
    out = tg(repo, "metrics", "--push", f"http://127.0.0.1:{port}", check=False)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "could not send the metrics" in out.stderr
    assert out.stderr.startswith("tg-git: could not") and out.stderr.count("tg-git:") == 1
    bad = tg(repo, "metrics", "--otlp", "file:///etc/passwd", check=False)
    assert bad.returncode == 1 and "is not an http(s) address" in bad.stderr


class _Receiver(BaseHTTPRequestHandler):
    bodies: list[tuple[str, str, bytes]] = []  # noqa: RUF012 (the test's own)

    def do_PUT(self) -> None:  # a Pushgateway's replace
        self.do_POST()

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        self.bodies.append((self.path, self.headers["Content-Type"], self.rfile.read(length)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


def test_otlp_body_is_an_export_metrics_service_request(repo: Path, tmp_path: Path) -> None:
    """`--otlp` POSTs OTLP/JSON that the protocol's own definitions parse, named and
    labelled by the GenAI and VCS conventions, with the figures `status` gives."""
    json_format = pytest.importorskip("google.protobuf.json_format")
    service = pytest.importorskip("opentelemetry.proto.collector.metrics.v1.metrics_service_pb2")
    _measured_repo(repo, tmp_path)
    here = status(repo)
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/v1/metrics"
        tg(repo, "metrics", "--otlp", url)
    finally:
        server.shutdown()
        server.server_close()
    ((path, kind, body),) = _Receiver.bodies
    assert path == "/v1/metrics" and kind == "application/json"
    request = json_format.Parse(body.decode(), service.ExportMetricsServiceRequest())
    (resource,) = request.resource_metrics
    attrs = {a.key: a.value.string_value for a in resource.resource.attributes}
    assert attrs["vcs.repository.name"] == "repo" and attrs["vcs.ref.head.name"] == "main"
    assert attrs["vcs.ref.head.revision"] == git(repo, "rev-parse", "HEAD").stdout.strip()
    metrics = {m.name: m for m in resource.scope_metrics[0].metrics}
    usage = metrics["gen_ai.client.token.usage"]
    assert usage.unit == "{token}"
    measured = {"input": 0, "output": 0}
    estimated = 0
    for point in usage.histogram.data_points:
        a = {x.key: x.value.string_value for x in point.attributes}
        if a["tg_git.token.source"] == "measured":
            measured[a["gen_ai.token.type"]] += int(point.sum)
            assert a["gen_ai.request.model"].startswith("claude-") and a["gen_ai.agent.name"]
        else:
            estimated += int(point.sum)
    spend = here["spend"]
    assert measured["output"] == spend["output"]
    assert measured["input"] == spend["fresh_input"] + spend["cache_write"] + spend["cache_read"]
    assert estimated == here["input"] + here["output"]
    cost = sum(p.as_double for p in metrics["tg_git.cost.usage"].sum.data_points)
    assert cost == pytest.approx(spend["usd"], abs=1e-6)
    assert MARKER.encode() not in body


def _export_config(repo: Path, table: str, opt_in: bool = True) -> None:
    """``[export]`` in the tracked config and, with ``opt_in``, this clone's own opt-in."""
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + "\n[export]\n" + table)
    git(repo, "add", str(config))
    if opt_in:
        assert "after every commit" in tg(repo, "metrics", "--hook", "on").stdout


def test_a_tracked_export_table_alone_sends_nothing(repo: Path) -> None:
    """A clone's config is data: an `[export]` table that came with it makes no commit send
    anything anywhere until this clone opts in, and `--hook off` stops it again."""
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Receiver.bodies.clear()
    try:
        _export_config(repo, f'push = "http://127.0.0.1:{server.server_port}"\n', opt_in=False)
        for name in ("a", "b"):
            (repo / f"{name}.py").write_text(f"print('{name}')\n")
            git(repo, "add", f"{name}.py")
            commit(repo, "-m", name)
            if name == "a":
                assert _Receiver.bodies == []
                tg(repo, "metrics", "--hook", "on")
                tg(repo, "metrics", "--hook", "off")
    finally:
        server.shutdown()
        server.server_close()
    assert _Receiver.bodies == []


def test_a_commit_pushes_where_the_config_says(repo: Path, tmp_path: Path) -> None:
    """With `[export] push` set, the post-commit hook replaces this repository and
    branch's group on the Pushgateway with the figures `status` counts after the commit."""
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Receiver.bodies.clear()
    try:
        _export_config(repo, f'push = "http://127.0.0.1:{server.server_port}"\n')
        _measured_repo(repo, tmp_path)
    finally:
        server.shutdown()
        server.server_close()
    here = status(repo)
    path, kind, body = _Receiver.bodies[-1]
    assert path.startswith("/metrics/job/tg-git/repository@base64/") and kind.startswith(
        "text/plain"
    )
    text = body.decode()
    measured = sum(
        int(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("tg_git_tokens_total{") and 'source="measured"' in line
    )
    assert measured == here["spend"]["total"]
    assert MARKER not in text


def test_a_push_that_cannot_finish_never_blocks_a_commit(repo: Path) -> None:
    """A Pushgateway that takes the connection and never answers, one that is not there:
    the commit is made and counted, and the hook says so in one line each."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # accepts connections into its backlog, never answers
    dead = _port()
    try:
        _export_config(
            repo,
            f'push = "http://127.0.0.1:{silent.getsockname()[1]}"\n'
            f'otlp = "http://127.0.0.1:{dead}/v1/metrics"\ntimeout = 1\n',
        )
        before = status(repo)["session"]["commits"]
        (repo / "b.py").write_text("print('b')\n")
        git(repo, "add", "b.py")
        done = commit(repo, "-m", "add b")
    finally:
        silent.close()
    assert done.returncode == 0
    assert status(repo)["session"]["commits"] == before + 1
    lines = [ln for ln in done.stderr.splitlines() if "could not send the metrics" in ln]
    assert len(lines) == 2 and all("the commit is made" in ln for ln in lines), done.stderr
    assert all(ln.startswith("tg-git: could not") for ln in lines), done.stderr  # said once


def test_a_bad_export_table_is_named(repo: Path) -> None:
    _export_config(repo, 'push = "ftp://example"\n', opt_in=False)
    out = tg(repo, "status", check=False)
    assert out.returncode == 1 and "`export.push` must be an http(s) address" in out.stderr
