"""Every user-facing line tg-git prints, keyed, English and Korean side by side.

``text(language, key, **values)`` formats one. The Korean blocks are the seed's own
(``seed/token-guard-skill.md``); the English ones are their translation. A test walks every
key and fails on a missing or differently-shaped translation. Imported on the hook path:
a plain dict, nothing else.
"""

from __future__ import annotations

from typing import Any

# key: (en, ko)
MESSAGES: dict[str, tuple[str, str]] = {
    # ---- levels (what the hooks print) --------------------------------------------------
    "level.ok": ("ok", "정상"),
    "level.warning": ("warning", "경고"),
    "level.force-save": ("force-save", "강제 저장"),
    "level.halt": ("halt", "중단"),
    "gauge": (
        "tg-git 🔋 ~{used:,}/{max:,} tokens ({pct}%) · {level} · this commit +{delta:,}",
        "tg-git 🔋 ~{used:,}/{max:,} 토큰 ({pct}%) · {level} · 이번 커밋 +{delta:,}",
    ),
    "warning": (
        "> ⚠️ **Token warning**: ~{used:,}/{max:,} used ({pct}%)\n"
        "> Finish what the remaining tokens can complete first.\n"
        "> Current work: {current}\n"
        "> Remaining: {pending}",
        "> ⚠️ **토큰 경고**: ~{used:,}/{max:,} 사용 ({pct}%)\n"
        "> 남은 토큰으로 완료 가능한 작업을 우선 처리합니다.\n"
        "> 현재 작업: {current}\n"
        "> 남은 작업: {pending}",
    ),
    "halt": (
        "> 🔴 **Token limit reached**: stopping now.\n"
        "> Checkpoint saved: `harness_checkpoint.json`\n"
        '> Resume in a new session with "continue" (`tg-git resume`).',
        "> 🔴 **토큰 한계 도달**: 즉시 중단합니다.\n"
        "> 체크포인트가 저장되었습니다: `harness_checkpoint.json`\n"
        '> 새 세션에서 "이어서 해줘"로 재개하세요 (`tg-git resume`).',
    ),
    "halt_fix": (
        "tg-git: commit refused: this session's budget is spent. Your changes are still "
        "staged. Start a new session (`tg-git resume` or `tg-git session start`), or commit "
        "anyway with TG_GIT_ALLOW_HALT=1 (recorded in the ledger).",
        "tg-git: 커밋 거부: 이 세션의 토큰 예산이 소진되었습니다. 변경 사항은 스테이징된 채로 "
        "남아 있습니다. 새 세션을 시작하거나(`tg-git resume` 또는 `tg-git session start`), "
        "TG_GIT_ALLOW_HALT=1 로 강제 커밋하세요(원장에 기록됨).",
    ),
    "halt_crossed": (
        "> 🔴 **Token limit reached**: this commit lands and a checkpoint is saved right after "
        "it.\n"
        "> The NEXT commit of this session will be refused. Start a new session with "
        "`tg-git resume` (or `tg-git session start`), or commit anyway with TG_GIT_ALLOW_HALT=1.",
        "> 🔴 **토큰 한계 도달**: 이 커밋은 반영되고 바로 뒤에 체크포인트가 저장됩니다.\n"
        "> 이 세션의 다음 커밋은 거부됩니다. `tg-git resume`(또는 `tg-git session start`)으로 "
        "새 세션을 시작하거나, TG_GIT_ALLOW_HALT=1 로 강제 커밋하세요.",
    ),
    "force_save_crossed": (
        "tg-git: force-save level reached: a checkpoint is saved right after this commit.",
        "tg-git: 강제 저장 단계 도달: 이 커밋 직후 체크포인트를 저장합니다.",
    ),
    "override_recorded": (
        "tg-git: committed past the halt level with TG_GIT_ALLOW_HALT=1; the override is "
        "recorded in the ledger (override = true).",
        "tg-git: TG_GIT_ALLOW_HALT=1 로 중단 단계를 넘어 커밋했습니다. 이 강제 커밋은 원장에 "
        "기록됩니다 (override = true).",
    ),
    "none": ("none", "없음"),
    "budget_positive": (
        "the budget must be a positive number of tokens, not {n}; use one such as 200000.",
        "토큰 예산은 양수여야 합니다({n} 불가). 200000 같은 값을 쓰세요.",
    ),
    "budget_collapses": (
        "a budget of {n:,} tokens puts {a} and {b} at the same point ({at:,} tokens); "
        "use at least {least:,} tokens.",
        "{n:,} 토큰 예산에서는 {a} 단계와 {b} 단계가 같은 지점({at:,} 토큰)이 됩니다. "
        "최소 {least:,} 토큰을 쓰세요.",
    ),
    # ---- status --------------------------------------------------------------------------
    "table_title": ("## 🔋 Token gauge (self-estimated)", "## 🔋 토큰 게이지 (자가 추정)"),
    "table_head": ("| Item | Estimated tokens |", "| 항목 | 추정 토큰 |"),
    "input_row": ("Input (user requests + context)", "입력 (유저 요청 + 컨텍스트)"),
    "output_row": ("Output {n}: {what}", "출력 {n}: {what}"),
    "output_more": ("{path} and {n} more file(s)", "{path} 외 {n}개 파일"),
    "output_none": ("commit", "커밋"),
    "earlier_row": ("Outputs 1–{n}: earlier commits", "출력 1–{n}: 이전 커밋"),
    "total_row": ("**Cumulative**", "**누적**"),
    "level_line": (
        "Level: **{level}** (warning {warning:,} · force-save {force_save:,} · halt {halt:,})",
        "단계: **{level}** (경고 {warning:,} · 강제 저장 {force_save:,} · 중단 {halt:,})",
    ),
    "remaining_line": (
        "Remaining: ~{remaining:,} tokens ({to_halt:,} before the halt level)",
        "남은 토큰: ~{remaining:,} (중단 단계까지 {to_halt:,})",
    ),
    "tasks_title": ("## 📋 Tasks", "## 📋 작업"),
    "next_title": ("## ⏭️ Next steps", "## ⏭️ 다음 단계"),
    "task.pending": ("pending", "대기"),
    "task.in_progress": ("in progress", "진행 중"),
    "task.blocked": ("blocked", "막힘"),
    "task.done": ("done", "완료"),
    "task_line": ("- [{status}] {title}", "- [{status}] {title}"),
    "task_at": ("   at: {at}", "   중단 지점: {at}"),
    "task_blocker": ("   blocked by: {why}", "   막힌 이유: {why}"),
    "no_tasks": (
        "No tasks yet (`tg-git task add TITLE`).",
        "작업이 없습니다 (`tg-git task add 제목`).",
    ),
    # ---- plan commands -------------------------------------------------------------------
    "recorded": (
        "tg-git: recorded {count:,} input tokens; session at {used:,}/{max:,}.",
        "tg-git: 입력 토큰 {count:,}개를 기록했습니다. 세션 {used:,}/{max:,}.",
    ),
    "task_done_msg": ("tg-git: task {op}: {title}", "tg-git: 작업 {op}: {title}"),
    "task_op.add": ("added", "추가"),
    "task_op.start": ("started", "시작"),
    "task_op.done": ("done", "완료"),
    "task_op.block": ("blocked", "막힘"),
    "task_empty": ("a task needs a title.", "작업에는 제목이 필요합니다."),
    "text_too_long": (
        "this text is at most {limit} characters; shorten it.",
        "이 텍스트는 최대 {limit}자입니다. 줄여 주세요.",
    ),
    "text_controls": (
        "this text must be one line without control characters; retype it.",
        "이 텍스트는 제어 문자 없는 한 줄이어야 합니다. 다시 입력하세요.",
    ),
    "task_unknown": (
        "no task {title!r} in this session; add it with `tg-git task add {quoted}` "
        "(`tg-git task list` shows the plan).",
        "이 세션에 {title!r} 작업이 없습니다. `tg-git task add {quoted}`로 추가하세요 "
        "(`tg-git task list`로 계획 확인).",
    ),
    "task_exists": (
        "task {title!r} already exists ({status}); start it with `tg-git task start {quoted}`.",
        "{title!r} 작업이 이미 있습니다({status}). `tg-git task start {quoted}`로 시작하세요.",
    ),
    "note_empty": (
        "a note needs text; say what the next session must know.",
        "메모 내용이 필요합니다. 다음 세션이 알아야 할 내용을 적으세요.",
    ),
    "noted": ("tg-git: noted.", "tg-git: 메모했습니다."),
    "next_added": ("tg-git: next step added: {text}", "tg-git: 다음 단계 추가: {text}"),
    "next_cleared": ("tg-git: next steps cleared.", "tg-git: 다음 단계를 비웠습니다."),
    "next_needs": (
        "give the next step as text, or --clear.",
        "다음 단계를 텍스트로 주거나 --clear를 쓰세요.",
    ),
    "session_started": (
        "tg-git: session {id} started with a budget of {max:,} tokens.",
        "tg-git: 세션 {id} 시작 (예산 {max:,} 토큰).",
    ),
    "tokens_negative": (
        "--tokens must be a whole number >= 0.",
        "--tokens는 0 이상의 정수여야 합니다.",
    ),
    "cannot_read": (
        "cannot read {path} ({why}); check the path.",
        "{path}을(를) 읽을 수 없습니다({why}). 경로를 확인하세요.",
    ),
    # ---- checkpoint and log --------------------------------------------------------------
    "saved": ("tg-git: saved {tag} ({title})", "tg-git: 저장됨 {tag} ({title})"),
    "nothing_new": (
        "tg-git: nothing new since {tag}; no checkpoint commit made.",
        "tg-git: {tag} 이후 새로운 것이 없어 체크포인트 커밋을 만들지 않았습니다.",
    ),
    "no_checkpoints": (
        "tg-git: no checkpoints yet (`tg-git checkpoint` makes one).",
        "tg-git: 아직 체크포인트가 없습니다 (`tg-git checkpoint`로 생성).",
    ),
    "log_row": (
        "{tag}  {commit}  {time}  {figures} tokens  {files} files, {tasks} tasks completed",
        "{tag}  {commit}  {time}  {figures} 토큰  파일 {files}개, 완료 작업 {tasks}개",
    ),
    "busy_operation": (
        "a merge, rebase, cherry-pick or revert is in progress; finish or abort it, then save.",
        "merge, rebase, cherry-pick 또는 revert가 진행 중입니다. 끝내거나 중단한 뒤 저장하세요.",
    ),
    "checkpoint_path_dir": (
        "{path} is a directory, so no checkpoint can be written there; move it aside and save "
        "again with `tg-git checkpoint`.",
        "{path}이(가) 디렉터리라서 체크포인트를 쓸 수 없습니다. 옮긴 뒤 `tg-git checkpoint`로 "
        "다시 저장하세요.",
    ),
    "kept_edit": (
        "tg-git: your {where} edit of {path} was kept at {kept}",
        "tg-git: {path}의 {where} 수정본을 {kept}에 보관했습니다",
    ),
    "where.staged": ("staged", "스테이징된"),
    "where.unstaged": ("unstaged", "스테이징되지 않은"),
    "where.symlink": ("symbolic link", "심볼릭 링크"),
    "finished_interrupted": (
        "tg-git: finished an interrupted save: {tag}",
        "tg-git: 중단된 저장을 마쳤습니다: {tag}",
    ),
    "not_signed": (
        "tg-git: the checkpoint commit is NOT signed: commit.gpgsign is set but signing failed "
        "({why}); check user.signingKey and gpg.program.",
        "tg-git: 체크포인트 커밋이 서명되지 않았습니다(NOT signed): commit.gpgsign이 설정되어 "
        "있지만 서명에 실패했습니다({why}). user.signingKey와 gpg.program을 확인하세요.",
    ),
    "resume_instructions": (
        "Run `tg-git resume`: it verifies every completed file (intact, modified, missing) "
        "and starts a new session. Continue each in_progress item from its stopping_point, "
        "then next_steps in order; pending is the queue; blocked items wait for their "
        "blockers. Completed files were finished earlier: check what resume reports before "
        "building on them, and change them when a task needs it.",
        "`tg-git resume`를 실행하세요: completed 파일을 모두 검증하고(intact, modified, "
        "missing) 새 세션을 시작합니다. in_progress의 stopping_point부터 재개하고, 이어서 "
        "next_steps를 순서대로 실행합니다. pending은 대기 목록이고, blocked 항목은 막힌 이유가 "
        "풀릴 때까지 기다립니다. completed 파일은 이미 끝난 것이니 resume의 검증 결과를 먼저 "
        "확인하고, 작업에 필요하면 수정해도 됩니다.",
    ),
    # ---- CHECKPOINT.md (the seed's template; additions after its sections) ---------------
    "md.saved": ("Saved", "저장 시각"),
    "md.tokens": ("Tokens", "토큰"),
    "md.completed": ("✅ Completed", "✅ 완료"),
    "md.in_progress": ("🔄 In progress", "🔄 진행 중"),
    "md.next": ("⏭️ Next steps", "⏭️ 다음 단계"),
    "md.context": ("🔑 Critical context", "🔑 필수 컨텍스트"),
    "md.blocked": ("⛔ Blocked", "⛔ 막힘"),
    "md.pending": ("📋 Pending", "📋 대기"),
    "md.done": ("📝 Done this session", "📝 이번 세션에 한 일"),
    "md.message": ("Message", "메시지"),
    "md.files": ("Files ({n})", "파일 ({n}개)"),
    "md.tasks": ("Tasks ({n})", "작업 ({n}개)"),
    "md.commits": ("{n} commit(s), ~{tokens:,} output tokens", "커밋 {n}개, 출력 ~{tokens:,} 토큰"),
    "md.more": ("… and {n} more", "… 외 {n}개"),
    "md.none": ("(none)", "(없음)"),
    "md.blocked_by": ("blocked by", "막힌 이유"),
    # ---- resume briefing -----------------------------------------------------------------
    "brief.title": ("## 🔄 Session resumed", "## 🔄 세션 재개"),
    "brief.checkpoint": ("**Checkpoint**", "**체크포인트**"),
    "brief.completed": ("**Completed**", "**완료**"),
    "brief.files": ("{n} file(s)", "{n}개 파일"),
    "brief.tasks": ("{n} task(s): {titles}", "작업 {n}개: {titles}"),
    "brief.resume_at": ("**Resume at**", "**재개 지점**"),
    "brief.blocked": ("**Blocked**", "**막힘**"),
    "brief.remaining": ("**Remaining**", "**남은 작업**"),
    "brief.next": ("**Next steps**", "**다음 단계**"),
    "brief.context": ("**Critical context**", "**필수 컨텍스트**"),
    "brief.integrity": ("**Integrity**", "**무결성**"),
    "brief.integrity_ok": ("all {n} intact", "{n}개 모두 온전함"),
    "brief.drift": ("**Drift**", "**불일치**"),
    "brief.budget": (
        "**New session**: {id}, budget {max:,} tokens (warning {warning:,} · force-save "
        "{force_save:,} · halt {halt:,})",
        "**새 세션**: {id}, 예산 {max:,} 토큰 (경고 {warning:,} · 강제 저장 {force_save:,} · "
        "중단 {halt:,})",
    ),
    "brief.reused": ("(already started by an earlier resume)", "(이전 resume에서 이미 시작됨)"),
    "brief.staged": (
        "**Still staged** (a refused commit left them; commit them now): {files}",
        "**스테이징된 채 남은 파일** (거부된 커밋이 남김, 지금 커밋하세요): {files}",
    ),
    "brief.done": ("**Done last session**", "**지난 세션에 한 일**"),
    "brief.message": ("**Message**", "**메시지**"),
    "brief.skipped": (
        "tg-git: skipped {tag}: {why}; resuming from the next newest checkpoint.",
        "tg-git: {tag} 건너뜀: {why}; 그다음 최신 체크포인트에서 재개합니다.",
    ),
    "no_checkpoint": (
        "no checkpoint found (no checkpoint/ tag, no `checkpoint:` commit, no "
        "harness_checkpoint.json); save one with `tg-git checkpoint`, or fetch tags with "
        "`git fetch --tags`.",
        "체크포인트가 없습니다 (checkpoint/ 태그, `checkpoint:` 커밋, harness_checkpoint.json 모두 "
        "없음). `tg-git checkpoint`로 저장하거나 `git fetch --tags`로 태그를 가져오세요.",
    ),
    "no_checkpoint_tag": (
        "no checkpoint tag {name!r}; list them with `tg-git log`.",
        "체크포인트 태그 {name!r}이(가) 없습니다. `tg-git log`로 목록을 보세요.",
    ),
    "bad_checkpoint": (
        "{detail}",
        "체크포인트를 쓸 수 없습니다: {detail} (`tg-git resume --from 태그`로 다른 체크포인트를 "
        "고르세요.)",
    ),
    "status.intact": ("intact", "온전함"),
    "status.modified": ("modified", "수정됨"),
    "status.missing": ("missing", "없음"),
    "status.rejected": ("rejected", "거부됨"),
    "status.not-a-file": ("not a file", "파일 아님"),
    "resume_commit": (
        "tg-git: session {id} resumed from {origin}",
        "tg-git: session {id} resumed from {origin}",
    ),
    # ---- verify --------------------------------------------------------------------------
    "verify_ok": (
        "tg-git: ledger matches history ({n} commits checked).",
        "tg-git: 원장이 이력과 일치합니다 (커밋 {n}개 확인).",
    ),
    "verify_drift": (
        "tg-git: drift in {commit} ({subject}): {reason}",
        "tg-git: {commit} ({subject}) 불일치: {reason}",
    ),
    "verify_summary": (
        "tg-git: {n} of {checked} commits drift from the ledger; recount them with a new "
        "commit (`tg-git repair` restores lost events) or accept them, as your team prefers.",
        "tg-git: 커밋 {checked}개 중 {n}개가 원장과 맞지 않습니다. 새 커밋으로 다시 세거나 "
        "(`tg-git repair`로 잃은 이벤트 복구) 팀 방침에 따라 그대로 두세요.",
    ),
    "verify_unseen": (
        "tg-git: not checked: {what}",
        "tg-git: 확인하지 못함: {what}",
    ),
    "repaired": (
        "tg-git: rebuilt {files} ledger file(s): {events:,} events kept ({restored:,} restored), "
        "{dropped:,} broken line(s) dropped; staged.",
        "tg-git: 원장 파일 {files}개를 다시 만들었습니다: 이벤트 {events:,}개 유지({restored:,}개 "
        "복구), 깨진 줄 {dropped:,}개 제거; 스테이징됨.",
    ),
    "hook_repaired": (
        "tg-git: repaired {path}: dropped {n} line(s) that were not events (junk or conflict "
        "markers); every event was kept.",
        "tg-git: {path} 복구: 이벤트가 아닌 줄 {n}개(잡음 또는 충돌 표시)를 지웠습니다. 모든 "
        "이벤트는 유지됩니다.",
    ),
    # ---- init and config -----------------------------------------------------------------
    "wrote": ("tg-git: wrote {item}", "tg-git: {item} 작성"),
    "session_item": ("{path} (session {id})", "{path} (세션 {id})"),
    "set_up_already": (
        "tg-git: already set up here; nothing changed.",
        "tg-git: 이미 설정되어 있습니다. 바뀐 것이 없습니다.",
    ),
    "init_next": (
        "tg-git: next, `tg-git install` adds the git hooks; commit .tg-git/ and .gitattributes.",
        "tg-git: 다음으로 `tg-git install`로 git 훅을 설치하고 .tg-git/와 .gitattributes를 "
        "커밋하세요.",
    ),
    "init_updated": (
        "tg-git: set {key} = {value} in {path}",
        "tg-git: {path}의 {key} = {value} 설정",
    ),
    "left_unstaged": (
        "tg-git: {path} has your unstaged edits, so it was left unstaged; review it and "
        "`git add {path}`.",
        "tg-git: {path}에 스테이징되지 않은 수정이 있어 그대로 두었습니다. 확인 후 "
        "`git add {path}` 하세요.",
    ),
    "attributes_symlink": (
        "tg-git: .gitattributes is a symbolic link, so tg-git did not write through it; add "
        "the line `{line}` to the file it points to yourself.",
        "tg-git: .gitattributes가 심볼릭 링크라서 쓰지 않았습니다. 가리키는 파일에 `{line}` "
        "줄을 직접 추가하세요.",
    ),
    "attributes_not_file": (
        ".gitattributes is not a regular file; move it aside, then run `tg-git init` again.",
        ".gitattributes가 일반 파일이 아닙니다. 옮긴 뒤 `tg-git init`을 다시 실행하세요.",
    ),
    "config_set": ("tg-git: {key} = {value}", "tg-git: {key} = {value}"),
    "config_next_session": (
        "tg-git: the current session keeps its budget; the new one applies from the next "
        "session (`tg-git session start`).",
        "tg-git: 현재 세션은 기존 예산을 유지합니다. 새 값은 다음 세션부터 적용됩니다 "
        "(`tg-git session start`).",
    ),
    "config_unknown_key": (
        "unknown config key {key!r}; use one of {keys}.",
        "알 수 없는 설정 키 {key!r}입니다. 다음 중 하나를 쓰세요: {keys}.",
    ),
    "config_bad_value": (
        "{key} must be {kind}, not {value!r}; for example `tg-git config set {key} {example}`.",
        "{key}는 {kind}이어야 합니다({value!r} 불가). 예: `tg-git config set {key} {example}`.",
    ),
    "config_needs_value": (
        "`tg-git config set` needs a KEY and a VALUE.",
        "`tg-git config set`에는 KEY와 VALUE가 필요합니다.",
    ),
    "not_counted_no_tg_git": (
        "tg-git: THIS COMMIT IS NOT COUNTED: this branch has no .tg-git/ (an orphan branch?) "
        "though this clone uses tg-git; run `git checkout main -- .tg-git .gitattributes` "
        "(your branch's name for main) so its commits are counted.",
        "tg-git: 이 커밋은 집계되지 않습니다: 이 클론은 tg-git을 쓰지만 이 브랜치에는 .tg-git/이 "
        "없습니다(orphan 브랜치?). 커밋이 집계되도록 `git checkout main -- .tg-git "
        ".gitattributes`를 실행하세요(main은 여러분의 기본 브랜치 이름).",
    ),
    "am_three_way_set": (
        "tg-git: set am.threeWay=true in this repository's config, so a plain `git am` merges "
        "ledger lines as merges do.",
        "tg-git: 이 저장소 설정에 am.threeWay=true를 넣었습니다. 이제 일반 `git am`도 병합처럼 "
        "원장 줄을 합칩니다.",
    ),
    "save_raced": (
        "tg-git: the checkpoint was not saved: other commits kept moving HEAD during the save; "
        "run `tg-git checkpoint` again.",
        "tg-git: 체크포인트를 저장하지 못했습니다: 저장 중에 다른 커밋이 계속 HEAD를 옮겼습니다. "
        "`tg-git checkpoint`를 다시 실행하세요.",
    ),
}

LANGUAGES = ("en", "ko")


def text(language: str, key: str, /, **values: Any) -> str:
    """The message ``key`` in ``language`` (English for an unknown language), formatted."""
    pair = MESSAGES[key]
    template = pair[1] if language == "ko" else pair[0]
    return template.format(**values) if values else template
