"""Thresholds -> ok / warning / force-save / halt, and the blocks the seed prints at each."""

from __future__ import annotations

from tg_git.config import Config
from tg_git.ledger import Session

OK, WARNING, FORCE_SAVE, HALT = "ok", "warning", "force-save", "halt"


def level(used: int, max_tokens: int, config: Config) -> str:
    percent = 100.0 * used / max_tokens if max_tokens else 100.0
    if percent >= config.halt:
        return HALT
    if percent >= config.force_save:
        return FORCE_SAVE
    if percent >= config.warning:
        return WARNING
    return OK


def thresholds(max_tokens: int, config: Config) -> dict[str, int]:
    """The seed's ``token_thresholds``: the levels in tokens."""
    return {
        "warning": int(max_tokens * config.warning / 100),
        "force_save": int(max_tokens * config.force_save / 100),
        "halt": int(max_tokens * config.halt / 100),
    }


TEXT = {
    "en": {
        "gauge": "tg-git 🔋 ~{used:,}/{max:,} tokens ({pct:.0f}%) · {level} · this commit +{delta:,}",
        "warning": (
            "> ⚠️ **Token warning**: ~{used:,}/{max:,} used ({pct:.0f}%)\n"
            "> Finish what the remaining tokens can complete first.\n"
            "> Current work: {current}\n"
            "> Remaining: {pending}"
        ),
        "halt": (
            "> 🔴 **Token limit reached**: stopping now.\n"
            "> Checkpoint saved: `harness_checkpoint.json`\n"
            '> Resume in a new session with "continue" (`tg-git resume`).'
        ),
        "halt_fix": (
            "tg-git: commit refused: this session's budget is spent. Your changes are still "
            "staged. Start a new session (`tg-git resume` or `tg-git session start`), or commit "
            "anyway with TG_GIT_ALLOW_HALT=1 (recorded in the ledger)."
        ),
        "none": "none",
        "table_title": "## 🔋 Token gauge (self-estimated)",
        "table_head": "| Item | Estimated tokens |",
        "input_row": "Input (user requests + context)",
        "output_row": "Output {n}: {what}",
        "total_row": "**Cumulative**",
        "level_line": "Level: **{level}** (warning {warning:,} · force-save {force_save:,} · halt {halt:,})",
    },
    "ko": {
        "gauge": "tg-git 🔋 ~{used:,}/{max:,} 토큰 ({pct:.0f}%) · {level} · 이번 커밋 +{delta:,}",
        "warning": (
            "> ⚠️ **토큰 경고**: ~{used:,}/{max:,} 사용 ({pct:.0f}%)\n"
            "> 남은 토큰으로 완료 가능한 작업을 우선 처리합니다.\n"
            "> 현재 작업: {current}\n"
            "> 남은 작업: {pending}"
        ),
        "halt": (
            "> 🔴 **토큰 한계 도달**: 즉시 중단합니다.\n"
            "> 체크포인트가 저장되었습니다: `harness_checkpoint.json`\n"
            '> 새 세션에서 "이어서 해줘"로 재개하세요.'
        ),
        "halt_fix": (
            "tg-git: 커밋 거부: 이 세션의 토큰 예산이 소진되었습니다. 변경 사항은 스테이징된 채로 "
            "남아 있습니다. 새 세션을 시작하거나(`tg-git resume` 또는 `tg-git session start`), "
            "TG_GIT_ALLOW_HALT=1 로 강제 커밋하세요(원장에 기록됨)."
        ),
        "none": "없음",
        "table_title": "## 🔋 토큰 게이지 (자가 추정)",
        "table_head": "| 항목 | 추정 토큰 |",
        "input_row": "입력 (유저 요청 + 컨텍스트)",
        "output_row": "출력 {n}: {what}",
        "total_row": "**누적**",
        "level_line": "단계: **{level}** (경고 {warning:,} · 강제 저장 {force_save:,} · 중단 {halt:,})",
    },
}


def text(config: Config, key: str) -> str:
    return TEXT[config.language][key]


def _figures(session: Session) -> dict[str, float]:
    return {"used": session.used, "max": session.max_tokens, "pct": session.percent}


def gauge_line(session: Session, config: Config, delta: int) -> str:
    lvl = level(session.used, session.max_tokens, config)
    return text(config, "gauge").format(**_figures(session), level=lvl, delta=delta)


def warning_block(session: Session, config: Config, current: str) -> str:
    none = text(config, "none")
    pending = ", ".join(session.titles("pending")) or none
    return text(config, "warning").format(
        **_figures(session), current=current or none, pending=pending
    )


def halt_block(config: Config) -> str:
    return text(config, "halt")
