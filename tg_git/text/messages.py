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
    # ---- the config file's values (config.from_mapping) ------------------------------------
    "config_wrong_type": (
        "{where}: `{key}` should be {kind}, not {value!r}; fix it or delete the line to use the "
        "default.",
        "{where}: `{key}` 값은 {kind}여야 합니다({value!r} 불가). 고치거나 그 줄을 지워 기본값을 "
        "쓰세요.",
    ),
    "toml_invalid": (
        "{what} is not valid TOML ({reason}); {fix}",
        "{what}은(는) 올바른 TOML이 아닙니다 ({reason}). {fix}",
    ),
    "toml_where": ("line {line}, column {column}", "{line}번째 줄, {column}번째 칸"),
    "config_toml_fix": (
        "fix it or restore it with `git checkout -- {path}`.",
        "고치거나 `git checkout -- {path}`로 복원하세요.",
    ),
    "config_kind.int": ("int", "정수"),
    "config_kind.str": ("str", "문자열"),
    "config_kind.list": ("list", "목록"),
    "config_kind.number": ("a number", "숫자"),
    "config_kind.tokens": ("a whole number of tokens", "토큰 수를 나타내는 정수"),
    "config_kind.percent": ("a percentage (0-100)", "백분율(0-100)"),
    "config_kind.choice": ("one of {choices}", "{choices} 중 하나"),
    "config_kind.line": ("one line of text", "한 줄의 텍스트"),
    "config_not_strings": (
        "{where}: `{key}` should be a list of strings; fix it.",
        "{where}: `{key}` 값은 문자열 목록이어야 합니다. 고치세요.",
    ),
    "config_not_tables": (
        "{where}: [thresholds] and [files] must be tables; fix the file.",
        "{where}: [thresholds]와 [files]는 테이블이어야 합니다. 파일을 고치세요.",
    ),
    "config_budget_not_table": (
        "{where}: [budget] must be a table; fix the file.",
        "{where}: [budget]은 테이블이어야 합니다. 파일을 고치세요.",
    ),
    "config_bad_source": (
        '{where}: `budget.source` must be "auto" or "estimate", not {value!r}.',
        '{where}: `budget.source` 값은 "auto" 또는 "estimate"여야 합니다({value!r} 불가).',
    ),
    "config_not_positive": (
        "{where}: `max_tokens` must be positive; set a budget such as 200000.",
        "{where}: `max_tokens` 값은 양수여야 합니다. 200000 같은 예산을 설정하세요.",
    ),
    "config_too_large": (
        "{where}: `max_tokens` must be at most {most}, the most a ledger reads back; set a "
        "budget such as 200000.",
        "{where}: `max_tokens` 값은 원장이 읽을 수 있는 최대값 {most} 이하여야 합니다. 200000 "
        "같은 예산을 설정하세요.",
    ),
    "config_thresholds_rise": (
        "{where}: thresholds must rise, warning <= force_save <= halt <= 100; fix [thresholds].",
        "{where}: 임계값은 `warning <= force_save <= halt <= 100` 순서로 커져야 합니다. "
        "[thresholds]를 고치세요.",
    ),
    "config_bad_language": (
        '{where}: `language` must be "en" or "ko", not {value!r}.',
        '{where}: `language` 값은 "en" 또는 "ko"여야 합니다({value!r} 불가).',
    ),
    "config_bad_profile": (
        "{where}: unknown `profile` {value!r}; use one of {names}.",
        "{where}: 알 수 없는 `profile` {value!r}입니다. 다음 중 하나를 쓰세요: {names}.",
    ),
    # ---- install, uninstall --------------------------------------------------------------
    "install_both_exist": (
        "both {hook} and {kept} exist; move one aside, then run install again.",
        "{hook}와 {kept}가 둘 다 있습니다. 하나를 옮긴 뒤 `tg-git install`을 다시 실행하세요.",
    ),
    "install_kept": (
        "tg-git: kept your {name} hook as {kept}; it still runs first.",
        "tg-git: 기존 {name} 훅을 {kept}로 보관했습니다. 그 훅이 여전히 먼저 실행됩니다.",
    ),
    "install_done": (
        "tg-git: installed {hooks} in {folder}",
        "tg-git: {folder}에 훅 설치: {hooks}",
    ),
    "install_follow_tags_on": (
        "tg-git: push.followTags is already on here: `git push` sends checkpoint tags.",
        "tg-git: 이 저장소는 이미 push.followTags가 켜져 있어 `git push`가 체크포인트 태그도 "
        "보냅니다.",
    ),
    "install_follow_tags_set": (
        "tg-git: set push.followTags=true in this repository's config, so a plain "
        "`git push` also sends the checkpoint tags of the commits it pushes.",
        "tg-git: 이 저장소 설정에 push.followTags=true를 켰습니다. 이제 `git push`만으로 "
        "푸시하는 커밋의 체크포인트 태그도 함께 보냅니다.",
    ),
    "uninstall_restored": (
        "tg-git: restored your {name} hook.",
        "tg-git: 기존 {name} 훅을 되돌려 놓았습니다.",
    ),
    "uninstall_done": (
        "tg-git: removed tg-git's hooks from {folder}",
        "tg-git: {folder}에서 tg-git 훅을 제거했습니다.",
    ),
    "uninstall_follow_tags": (
        "tg-git: unset the push.followTags that install had set.",
        "tg-git: 설치 때 켰던 push.followTags 설정을 해제했습니다.",
    ),
    "purge_unstaged": (
        "{folder}/ or .gitattributes has unstaged edits; commit or stash them, then run "
        "`tg-git uninstall --purge` again (nothing was changed).",
        "{folder}/ 또는 .gitattributes에 스테이징되지 않은 수정이 있습니다. 커밋하거나 stash한 "
        "뒤 `tg-git uninstall --purge`를 다시 실행하세요(아무것도 바뀌지 않았습니다).",
    ),
    "purge_folder": (
        "tg-git: removed {folder}/ (config and ledger) from the work tree and the index.",
        "tg-git: 작업 트리와 인덱스에서 {folder}/(설정과 원장)를 제거했습니다.",
    ),
    "purge_attributes": (
        "tg-git: removed the ledger's merge=union line from .gitattributes.",
        "tg-git: .gitattributes에서 원장의 merge=union 줄을 제거했습니다.",
    ),
    "purge_done": (
        "tg-git: purged; commit the removal (`git commit`). History, checkpoint commits and "
        "tags are untouched.",
        "tg-git: 제거를 마쳤습니다. 제거 내용을 커밋하세요(`git commit`). 히스토리, 체크포인트 "
        "커밋과 태그는 그대로입니다.",
    ),
    # ---- doctor --------------------------------------------------------------------------
    "doctor.hooks": ("hooks", "훅"),
    "doctor.hook_python": ("hook python", "훅의 파이썬"),
    "doctor.config": ("config", "설정"),
    "doctor.ledger": ("ledger", "원장"),
    "doctor.push": ("push", "푸시"),
    "doctor.remote_tags": ("remote tags", "원격 태그"),
    "doctor_mark_ok": ("ok ", "정상"),
    "doctor_mark_fix": ("FIX", "수정"),
    "doctor_fix_line": ("    fix: {fix}", "    해결: {fix}"),
    "doctor_summary": ("tg-git doctor: {n} problems found.", "tg-git doctor: 문제 {n}개 발견."),
    "doctor_summary_one": ("tg-git doctor: {n} problem found.", "tg-git doctor: 문제 {n}개 발견."),
    "doctor_run": ("run {fix}.", "{fix}을 실행하세요."),
    "doctor_and": (" and ", " 및 "),
    "doctor_or": (" (or {command})", " (또는 {command})"),
    "doctor_hooks_missing": ("not wired in {folder}: {hooks}", "{folder}에 연결되지 않음: {hooks}"),
    "doctor_no_post_merge": (
        " (without it, a merge or pull that crosses 90/95 % saves only at the next commit)",
        " (없으면 90/95 %를 넘는 merge나 pull은 다음 커밋에서야 저장됩니다)",
    ),
    "doctor_hooks_ok": ("{hooks} run by {who}", "{hooks}: {who}이(가) 실행"),
    "doctor_stale_python": (
        "the hooks run {python}, which no longer exists, and `tg-git` is not on PATH",
        "훅이 실행하는 {python}이(가) 더 이상 없고, `tg-git`도 PATH에 없습니다",
    ),
    "doctor_stale_python_fix": (
        "run `tg-git install` again with the tg-git you use now.",
        "지금 쓰는 tg-git으로 `tg-git install`을 다시 실행하세요.",
    ),
    "doctor_no_command": (
        "the pre-commit framework runs tg-git's hooks, but the `tg-git` command is not on PATH "
        "for init/status/resume",
        "pre-commit 프레임워크가 tg-git 훅을 실행하지만, init/status/resume에 쓸 `tg-git` "
        "명령이 PATH에 없습니다",
    ),
    "doctor_no_command_fix": (
        "install it once: `pipx install tg-git` (see README).",
        "한 번 설치하세요: `pipx install tg-git` (README 참고).",
    ),
    "doctor_pre_commit_ok": (
        ".pre-commit-config.yaml lists tg-git",
        ".pre-commit-config.yaml에 tg-git이 있습니다",
    ),
    "doctor_config_fix": (
        "fix the file it names, or `tg-git init`.",
        "메시지가 가리키는 파일을 고치거나 `tg-git init`을 실행하세요.",
    ),
    "doctor_config_ok": (
        "budget {budget:,}, profile {profile}",
        "예산 {budget:,}, 추정 프로필 {profile}",
    ),
    "doctor_ledger_fix": (
        "restore it from history (`git checkout HEAD -- .tg-git`).",
        "히스토리에서 복원하세요(`git checkout HEAD -- .tg-git`).",
    ),
    "doctor_no_session": ("no session has started", "시작된 세션이 없습니다"),
    "doctor_start_fix": ("run `tg-git session start`.", "`tg-git session start`를 실행하세요."),
    "doctor_ledger_ok": (
        "session {id}: ~{used:,}/{max:,} tokens ({pct}%)",
        "세션 {id}: ~{used:,}/{max:,} 토큰 ({pct}%)",
    ),
    "doctor_follow_tags_on": (
        "push.followTags is on (checkpoint tags travel with a plain `git push` only when it is on)",
        "push.followTags 켜짐 (이 설정이 켜져 있어야 `git push`만으로 체크포인트 태그가 함께 "
        "갑니다)",
    ),
    "doctor_follow_tags_off": (
        "push.followTags is off (checkpoint tags travel with a plain `git push` only when it is "
        "on)",
        "push.followTags 꺼짐 (이 설정이 켜져 있어야 `git push`만으로 체크포인트 태그가 함께 "
        "갑니다)",
    ),
    "doctor_follow_tags_fix": (
        "run `tg-git install` or `git config push.followTags true`.",
        "`tg-git install` 또는 `git config push.followTags true`를 실행하세요.",
    ),
    "doctor_no_remote": (
        "no remote configured; nothing to compare",
        "설정된 원격 저장소가 없어 비교할 것이 없습니다",
    ),
    "doctor_remote_silent": (
        "{remote} did not answer in {seconds} s",
        "{remote}이(가) {seconds}초 안에 응답하지 않았습니다",
    ),
    "doctor_remote_silent_fix": (
        "check the network, then run doctor again.",
        "네트워크를 확인한 뒤 `tg-git doctor`를 다시 실행하세요.",
    ),
    "doctor_remote_failed": (
        "cannot list {remote}'s tags ({reason})",
        "{remote}의 태그 목록을 가져올 수 없습니다 ({reason})",
    ),
    "doctor_remote_failed_fix": (
        "check `git remote -v` and access to {remote}.",
        "`git remote -v`와 {remote} 접근 권한을 확인하세요.",
    ),
    "doctor_tags_absent": (
        "{n} of {total} checkpoint tags are not on {remote} (first: {first})",
        "체크포인트 태그 {total}개 중 {n}개가 {remote}에 없습니다 (첫 번째: {first})",
    ),
    "doctor_tags_absent_fix": (
        "run `git push {remote} --follow-tags` (or `git push {remote} 'refs/tags/{prefix}*'`).",
        "`git push {remote} --follow-tags`(또는 `git push {remote} 'refs/tags/{prefix}*'`)를 "
        "실행하세요.",
    ),
    "doctor_tags_ok": (
        "{remote} has all {total} checkpoint tags",
        "{remote}에 체크포인트 태그 {total}개가 모두 있습니다",
    ),
    # ---- verify: why a commit drifts, what could not be checked -----------------------------
    "verify_shallow": (
        "{n} commit(s) at this shallow clone's boundary (their parents are not here); "
        "`git fetch --unshallow` lets verify check them.",
        "얕은 클론 경계의 커밋 {n}개(부모 커밋이 여기 없음). `git fetch --unshallow` 후 "
        "검증할 수 있습니다.",
    ),
    "verify_other_estimator": (
        "{commit}: counted with estimator {recorded!r}; this tg-git has {ours!r}, so its count "
        "was not re-estimated",
        "{commit}: 추정기 {recorded!r}로 세었는데 이 tg-git은 {ours!r}이므로 다시 추정하지 "
        "않았습니다",
    ),
    "drift_changed": (
        "changed {n} event(s) this clone recorded otherwise (edited by hand?)",
        "이 클론이 다르게 기록한 이벤트 {n}개가 바뀌었습니다(손으로 고쳤나요?)",
    ),
    "drift_lost": (
        "removed {n} event line(s) that are nowhere now (edited or deleted by hand?)",
        "지금은 어디에도 없는 이벤트 줄 {n}개가 지워졌습니다(손으로 고치거나 지웠나요?)",
    ),
    "drift_unreadable": (
        "its ledger lines do not read as events ({error})",
        "원장 줄을 이벤트로 읽을 수 없습니다 ({error})",
    ),
    "drift_checkpoint_like": (
        "looks like a checkpoint but changes more than the checkpoint files, uncounted",
        "체크포인트처럼 보이지만 체크포인트 파일 외의 것도 바꾸었고, 세지 않았습니다",
    ),
    "drift_uncounted": (
        "not counted: its change estimates {estimate:,} tokens but it added no ledger event "
        "(--no-verify?)",
        "세지 않음: 변경은 약 {estimate:,} 토큰인데 원장 이벤트가 추가되지 않았습니다 "
        "(--no-verify?)",
    ),
    "drift_short": (
        "the ledger claims {claimed:,} tokens, the change estimates {estimate:,}",
        "원장은 {claimed:,} 토큰이라 하지만 변경은 약 {estimate:,} 토큰입니다",
    ),
    # ---- git hooks: a tool error, the pre-push refusal ------------------------------------
    "hook_not_counted": (
        "the commit was not blocked, but this commit is not counted",
        "커밋은 막지 않았지만 이 커밋은 세지 않았습니다",
    ),
    "hook_not_blocked": ("the commit was not blocked", "커밋은 막지 않았습니다"),
    "hook_not_blocked.post-merge": ("the merge is done", "merge는 완료되었습니다"),
    "hook_not_blocked.pre-push": ("the push was not blocked", "푸시는 막지 않았습니다"),
    "hook_refused": ("tg-git: commit refused: {reason}", "tg-git: 커밋 거부: {reason}"),
    "unstaged_ledger": (
        "{path} has unstaged edits that tg-git did not make; stage them (`git add {path}`) "
        "or drop them (`git checkout -- {path}`), then try again.",
        "{path}에 tg-git이 만들지 않은, 스테이징되지 않은 수정이 있습니다. 스테이징하거나"
        "(`git add {path}`) 버린 뒤(`git checkout -- {path}`) 다시 시도하세요.",
    ),
    "hook_no_halt_save": (
        "tg-git: no halt checkpoint was saved for this session yet; save one with "
        "`tg-git checkpoint` before you start a new session.",
        "tg-git: 이 세션의 중단 체크포인트가 아직 저장되지 않았습니다. 새 세션을 시작하기 전에 "
        "`tg-git checkpoint`로 저장하세요.",
    ),
    "hook_no_start": (
        "tg-git: {path} has no session start, so this commit is not counted; run `tg-git repair`.",
        "tg-git: {path}에 세션 시작이 없어 이 커밋은 세지 않았습니다. `tg-git repair`를 "
        "실행하세요.",
    ),
    "hook_unknown": (
        "tg-git: unknown hook {name!r}; use pre-commit, pre-merge-commit, post-commit, "
        "post-merge or pre-push.",
        "tg-git: 알 수 없는 훅 {name!r}입니다. pre-commit, pre-merge-commit, post-commit, "
        "post-merge, pre-push 중 하나를 쓰세요.",
    ),
    "hook_crash": (
        "tg-git: internal error in the {name} hook ({error}); the commit was not blocked; "
        "please report it.",
        "tg-git: {name} 훅 내부 오류({error}). 커밋은 막지 않았습니다. 이 오류를 알려 주세요.",
    ),
    "push_refused": (
        "tg-git: push refused; `{command}` counts those commits in the ledger (in a commit "
        "of its own), then push again (or push with --no-verify).",
        "tg-git: 푸시 거부: `{command}`로 그 커밋들을 원장에 기록(별도 커밋)한 뒤 다시 "
        "푸시하세요(또는 --no-verify로 푸시).",
    ),
    # ---- checkpoint commits ----------------------------------------------------------------
    "checkpoint_title": (
        "{prefix} {level} at ~{used:,}/{max:,} tokens ({pct}%)",
        "{prefix} {level} ~{used:,}/{max:,} 토큰 ({pct}%)",
    ),
    "level.manual": ("manual", "수동"),
    "level.pre-compact": ("pre-compact", "압축 전"),
    # ---- estimate ------------------------------------------------------------------------
    "estimate_no_such_path": (
        "{path}: no such file or directory; check the path.",
        "{path}: 그런 파일이나 폴더가 없습니다. 경로를 확인하세요.",
    ),
    "estimate_not_a_file": (
        "{path}: not a regular file (a device, a pipe or a socket); tg-git reads only files.",
        "{path}: 일반 파일이 아닙니다(장치, 파이프 또는 소켓). tg-git은 파일만 읽습니다.",
    ),
    "estimate_unreadable_dir": (
        "{path}: is a directory that cannot be read; check the path.",
        "{path}: 읽을 수 없는 폴더입니다. 경로를 확인하세요.",
    ),
    "estimate_unreadable": (
        "cannot read {path} ({error}); check its permissions.",
        "{path}을(를) 읽을 수 없습니다 ({error}). 권한을 확인하세요.",
    ),
    "estimate_profile": (
        "unknown profile {profile!r}; choose one of {names}.",
        "알 수 없는 프로필 {profile!r}입니다. 다음 중 하나를 고르세요: {names}.",
    ),
    "estimate_staged_paths": (
        "--staged takes no paths; it estimates the whole index against HEAD.",
        "--staged에는 경로를 주지 않습니다. HEAD 대비 인덱스 전체를 추정합니다.",
    ),
    "estimate_nothing": (
        "give a PATH, `-` for standard input, or --staged.",
        "PATH, 표준 입력을 뜻하는 `-`, 또는 --staged를 주세요.",
    ),
    "estimate_total": ("total", "합계"),
    "estimate_binary": ("binary", "바이너리"),
    "estimate_excluded": ("excluded", "제외됨"),
    # ---- wrong arguments (argparse) --------------------------------------------------------
    "usage_error": (
        "{message}; see `{prog} --help`.",
        "{message}. `{prog} --help`를 참고하세요.",
    ),
    # ---- the work tree's ledger (workspace) ----------------------------------------------
    "ws_no_session": (
        "no tg-git session has started here; run `tg-git session start`.",
        "여기서 시작된 tg-git 세션이 없습니다. `tg-git session start`를 실행하세요.",
    ),
    "ws_dropped": (
        "tg-git: {path} has {n} line(s) that are not events, left out; the next commit drops "
        "them, or run `tg-git repair`.",
        "tg-git: {path}에 이벤트가 아닌 줄 {n}개가 있어 빼고 읽었습니다. 다음 커밋이 지우며, "
        "`tg-git repair`로 바로 고칠 수도 있습니다.",
    ),
    "ws_attributes": (
        "tg-git: add `{line}` to .gitattributes so branches merge the ledger.",
        "tg-git: 브랜치끼리 원장을 병합하도록 .gitattributes에 `{line}`을 추가하세요.",
    ),
    "ws_held": (
        "tg-git: recorded in tg-git's journal, but {path} was not written ({why}); the next "
        "commit writes it: do not record it again.",
        "tg-git: tg-git 저널에는 기록했지만 {path}은(는) 쓰지 못했습니다({why}). 다음 커밋이 "
        "씁니다. 다시 기록하지 마세요.",
    ),
    "ws_not_staged": (
        "tg-git: recorded, but could not stage {path} ({error}); the next commit stages it.",
        "tg-git: 기록했지만 {path}을(를) 스테이징하지 못했습니다({error}). 다음 커밋이 "
        "스테이징합니다.",
    ),
    "hook_no_session": (
        "tg-git: no session has started, so this commit is not counted; run "
        "`tg-git session start`.",
        "tg-git: 시작된 세션이 없어 이 커밋은 세지 않았습니다. `tg-git session start`를 "
        "실행하세요.",
    ),
    # ---- errors that reach the command line from anywhere (main, errors.os_fix) -----------
    "interrupted": ("interrupted.", "중단되었습니다."),
    "crash": (
        "internal error ({error}); please report it with `TG_GIT_DEBUG=1` output.",
        "내부 오류({error}). `TG_GIT_DEBUG=1`로 실행한 출력과 함께 알려 주세요.",
    ),
    "os_fix.space": (
        "free some disk space, then try again",
        "디스크 공간을 확보한 뒤 다시 시도하세요",
    ),
    "os_fix.read_only": (
        "the file system is read-only; remount it read-write, then try again",
        "파일 시스템이 읽기 전용입니다. 읽기-쓰기로 다시 마운트한 뒤 다시 시도하세요",
    ),
    "os_fix.permissions": (
        "make it writable (check its owner and permissions), then try again",
        "쓸 수 있게 한 뒤(소유자와 권한 확인) 다시 시도하세요",
    ),
    "os_fix.path": (
        "check the path and its permissions, then try again",
        "경로와 권한을 확인한 뒤 다시 시도하세요",
    ),
    # ---- report --------------------------------------------------------------------------
    "report_no_session": (
        "no session {id!r} in the ledger; `tg-git report --json` lists them.",
        "원장에 세션 {id!r}이(가) 없습니다. `tg-git report --json`이 세션 목록을 보여 줍니다.",
    ),
    "report_unwritable": (
        "cannot write {path} ({error}); {fix}, or choose another file with -o.",
        "{path}을(를) 쓸 수 없습니다 ({error}). {fix}. 또는 -o로 다른 파일을 고르세요.",
    ),
    "report.title": ("tg-git report", "tg-git 보고서"),
    "report.generated": (
        "generated {at} · ledger events: {events:,} · sessions: {sessions} · tg-git {version}",
        "생성 {at} · 원장 이벤트 {events:,}개 · 세션 {sessions}개 · tg-git {version}",
    ),
    "report.session": ("Session", "세션"),
    "report.current": ("current", "현재"),
    "report.used": ("used", "사용"),
    "report.max_tokens": ("budget", "예산"),
    "report.percent": ("percent", "비율"),
    "report.level": ("level", "단계"),
    "report.input": ("input", "입력"),
    "report.output": ("output", "출력"),
    "report.commits": ("commits", "커밋"),
    "report.inputs": ("inputs recorded", "입력 기록"),
    "report.overrides": ("overrides", "강제 커밋"),
    "report.checkpoints": ("checkpoints", "체크포인트"),
    "report.started": ("started", "시작"),
    "report.burn_title": ("Burn-down: tokens used", "소진 추이: 사용한 토큰"),
    "report.burn_label": (
        "cumulative tokens used in session {id}, against the 80/90/95 % levels",
        "세션 {id}의 누적 사용 토큰과 80/90/95 % 단계",
    ),
    "report.estimated": ("estimated", "추정"),
    "report.measured": ("measured (agent logs)", "측정 (에이전트 로그)"),
    "report.budget_line": ("budget", "예산"),
    "report.override": ("override: committed past the halt", "강제 커밋: 중단 후 커밋됨"),
    "report.checkpoint": ("checkpoint", "체크포인트"),
    "report.axis": ("commits and inputs →", "커밋과 입력 →"),
    "report.io_title": ("Input vs output", "입력 대 출력"),
    "report.tasks_title": ("Tokens per task", "작업별 토큰"),
    "report.task": ("task", "작업"),
    "report.status": ("status", "상태"),
    "report.stopping_point": ("stopping point", "중단 지점"),
    "report.tokens": ("tokens", "토큰"),
    "report.no_task": ("(no task in progress)", "(진행 중인 작업 없음)"),
    "report.commits_title": ("Costliest commits", "비용이 큰 커밋"),
    "report.subject": ("subject", "제목"),
    "report.paths": ("first file", "첫 파일"),
    "report.files": ("files", "파일 수"),
    "report.when": ("when", "시각"),
    "report.commit": ("commit", "커밋"),
    "report.not_found": ("not found in history", "기록에서 찾지 못함"),
    "report.files_title": ("Costliest files", "비용이 큰 파일"),
    "report.path": ("path", "경로"),
    "report.files_note": (
        "Single-file commits from the ledger; {n} multi-file commits re-estimated from history; {u:,} tokens of other commits are not split by file.",
        "단일 파일 커밋은 원장에서, 여러 파일 커밋 {n}개는 기록에서 다시 추정했습니다. 나머지 커밋의 {u:,} 토큰은 파일별로 나누지 않았습니다.",
    ),
    "report.sessions_title": ("Sessions by branch", "브랜치별 세션"),
    "report.sessions_note": (
        "Each branch's committed ledger at its head (the current branch: with the events recorded since, as `tg-git status` counts them); bars are input + output against each session's budget.",
        "각 브랜치 끝 커밋의 원장 (현재 브랜치는 `tg-git status`처럼 그 뒤에 기록된 이벤트 포함). 막대는 세션 예산 대비 입력 + 출력입니다.",
    ),
    "report.branch": ("branch", "브랜치"),
    "report.totals": ("totals", "합계"),
    "report.ledger_error": ("ledger unreadable", "원장을 읽을 수 없음"),
    "report.no_ledger": ("no ledger on this branch", "이 브랜치에는 원장이 없음"),
    "report.no_checkpoints": ("no checkpoints in this session", "이 세션에는 체크포인트가 없음"),
    "report.footer": (
        "Token figures are offline estimates (profile {profile}) unless marked measured. Numbers: `tg-git report --json`.",
        "토큰 수치는 측정으로 표시된 것 외에는 오프라인 추정치입니다 (프로필 {profile}). 수치: `tg-git report --json`.",
    ),
    # ---- a ledger that cannot be read (ledger.py: raised as keys, said in the reader's language)
    "ledger_long_line": (
        "a line of the ledger is over {n:,} characters; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).",
        "원장의 한 줄이 {n:,}자를 넘습니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).",
    ),
    "ledger_too_large": (
        "{where} is too large to read as hand-written TOML; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).",
        "{where}이(가) 너무 커서 손으로 쓴 TOML로 읽을 수 없습니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).",
    ),
    "ledger_not_event": (
        "{where}: entry `{key}` is not a tg-git event; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).",
        "{where}: 항목 `{key}`은(는) tg-git 이벤트가 아닙니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).",
    ),
    "ledger_not_file": (
        "{where} is not a regular file; remove it, then run `tg-git repair`.",
        "{where}이(가) 일반 파일이 아닙니다. 지운 뒤 `tg-git repair`를 실행하세요.",
    ),
    "ledger_unreadable": (
        "cannot read {where} ({error}); check its permissions.",
        "{where}을(를) 읽을 수 없습니다({error}). 권한을 확인하세요.",
    ),
    "ledger_not_utf8": (
        "{where} is not UTF-8 text; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).",
        "{where}은(는) UTF-8 텍스트가 아닙니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).",
    ),
    "ledger_bad_count": (
        "a ledger event's `{name}` must be a whole number from 0 to {n:,}; run `tg-git repair` (it rebuilds the ledger from history and this clone's journal).",
        "원장 이벤트의 `{name}` 값은 0부터 {n:,}까지의 정수여야 합니다. `tg-git repair`를 실행하세요(히스토리와 이 클론의 저널로 원장을 다시 만듭니다).",
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
    # ---- agent install (tg_git/agents/settings.py, commands/agent.py) ----------------------
    "agent.no_user_hooks": (
        "{agent} reads its hooks from the repository only (.github/hooks/); run "
        "`tg-git agent install {agent}` without --user.",
        "{agent}는 저장소의 훅(.github/hooks/)만 읽습니다. --user 없이 "
        "`tg-git agent install {agent}`를 실행하세요.",
    ),
    "agent.line_wrapped": (
        "your status line is kept: its output first, then tg-git's gauge",
        "기존 상태 줄은 유지됩니다: 그 출력 다음에 tg-git 게이지가 표시됩니다",
    ),
    "agent.line_wrapped_home": (
        "your status line from your home settings is kept here: its output first, then "
        "tg-git's gauge",
        "홈 설정의 상태 줄을 여기서도 유지합니다: 그 출력 다음에 tg-git 게이지가 표시됩니다",
    ),
    "agent.line_not_command": (
        "statusLine in {path} is not a command, so tg-git's gauge was not added to it",
        "{path}의 statusLine이 명령이 아니어서 tg-git 게이지를 추가하지 않았습니다",
    ),
    "agent.aligned": (
        "{key} = {value}: the agent compacts after tg-git's force-save",
        "{key} = {value}: 에이전트는 tg-git 강제 저장 뒤에 압축합니다",
    ),
    "agent.align_skipped": (
        "{key} is not a table there, so the compaction threshold was not set",
        "{key}가 테이블이 아니어서 압축 기준을 설정하지 않았습니다",
    ),
    "agent.no_align": (
        "tg-git: {agent}: no compaction threshold setting; tg-git saves at its pre-compaction "
        "hook instead.",
        "tg-git: {agent}: 압축 기준 설정이 없습니다. 대신 압축 전 훅에서 tg-git이 저장합니다.",
    ),
    "agent.none_found": (
        "no agent's folder or settings were found here or in your home; name one, "
        "e.g. `tg-git agent install claude` ({agents}).",
        "여기나 홈에서 에이전트 폴더나 설정을 찾지 못했습니다. 하나를 지정하세요. "
        "예: `tg-git agent install claude` ({agents}).",
    ),
    "agent.unknown": (
        "unknown agent {name!r}; use {agents} or all.",
        "알 수 없는 에이전트 {name!r}입니다. {agents} 또는 all을 쓰세요.",
    ),
    "agent.check_ok": (
        "{agent}: {where} ({events})",
        "{agent}: {where} ({events})",
    ),
    "agent.check_python": (
        "{agent}: the hooks in {where} run {python}, which no longer exists",
        "{agent}: {where}의 훅이 실행하는 {python}이(가) 더 이상 없습니다",
    ),
    "agent.check_unreadable": (
        "{agent}: {where} cannot be read",
        "{agent}: {where}을(를) 읽을 수 없습니다",
    ),
    "agent.check_fix": (
        "run `tg-git agent install {agent}{user}` with the tg-git you use now.",
        "지금 쓰는 tg-git으로 `tg-git agent install {agent}{user}`를 다시 실행하세요.",
    ),
    "agent.check_none": (
        "no agent is wired; `tg-git agent install all` guards every agent found here",
        "연결된 에이전트가 없습니다. `tg-git agent install all`은 여기서 찾은 모든 에이전트를 보호합니다",
    ),
    # ---- agent hooks: landing mode, compaction, resume (tg_git/agents/hook.py) ------------
    "agent.blocked.context": (
        "tg-git: this prompt was not sent: the context window is full; compact or clear the "
        "conversation (/compact, /clear) to go on, or start a new agent session, which is "
        "briefed from the checkpoint.",
        "tg-git: 이 프롬프트는 전송되지 않았습니다: 컨텍스트 창이 가득 찼습니다. 대화를 "
        "압축하거나 비우면(/compact, /clear) 계속할 수 있고, 새 에이전트 세션을 시작하면 "
        "체크포인트에서 브리핑합니다.",
    ),
    "agent.blocked.spend": (
        "tg-git: this prompt was not sent: the session's spend budget is spent; only a person "
        "lifts this halt, with `tg-git session start` or a raised spend budget.",
        "tg-git: 이 프롬프트는 전송되지 않았습니다: 세션의 사용량 예산이 소진되었습니다. 이 "
        "중단은 사람이 `tg-git session start` 또는 사용량 예산 상향으로만 해제합니다.",
    ),
    "agent.halted": (
        "tg-git: stop here: the session is halted and only tool calls that land work run now; "
        "{way_out}",
        "tg-git: 여기서 멈추세요: 세션이 중단되어 이제 작업을 반영하는 도구 호출만 실행됩니다. "
        "{way_out}",
    ),
    "agent.way_out.context": (
        "compact or clear the conversation (/compact, /clear) to go on.",
        "계속하려면 대화를 압축하거나 비우세요(/compact, /clear).",
    ),
    "agent.way_out.spend": (
        "a person lifts this halt with `tg-git session start` or a raised spend budget.",
        "이 중단은 사람이 `tg-git session start` 또는 사용량 예산 상향으로 해제합니다.",
    ),
    "agent.denied": (
        "tg-git: landing mode: this {tool} call was denied because the session is halted; only "
        "reading files, `git status/diff/add/commit` (a one-line `git commit -m '...'`) and "
        "`tg-git status/checkpoint/task/note` run now; {way_out}",
        "tg-git: 착륙 모드: 세션이 중단되어 이 {tool} 호출은 거부되었습니다. 이제 파일 읽기, "
        "`git status/diff/add/commit`(한 줄 `git commit -m '...'`), "
        "`tg-git status/checkpoint/task/note`만 실행됩니다. {way_out}",
    ),
    "agent.still_halted": (
        "tg-git: this session is still halted; {way_out}",
        "tg-git: 이 세션은 아직 중단 상태입니다. {way_out}",
    ),
    "agent.kept": (
        "tg-git: session {id} goes on (nothing was spent in it yet).",
        "tg-git: 세션 {id}을(를) 이어갑니다(아직 사용한 토큰이 없습니다).",
    ),
    "agent.compacted": (
        "tg-git: the context was compacted; session {id} goes on from the checkpoint saved "
        "before it:",
        "tg-git: 컨텍스트가 압축되었습니다. 세션 {id}은(는) 압축 전에 저장한 체크포인트에서 "
        "이어갑니다:",
    ),
    "agent.compact_waits": (
        "tg-git: this automatic compaction waits: the checkpoint is saved once the merge, pick, "
        "revert or rebase under way is finished, and the next compaction goes ahead regardless.",
        "tg-git: 이번 자동 압축은 보류됩니다: 진행 중인 병합·체리픽·되돌리기·리베이스가 끝나면 "
        "체크포인트를 저장하며, 다음 압축은 어떤 경우에도 진행됩니다.",
    ),
    "agent.compact_unsaved": (
        "tg-git: the checkpoint before this compaction was not saved ({why}); the compaction "
        "goes ahead.",
        "tg-git: 이번 압축 전 체크포인트가 저장되지 않았습니다({why}). 압축은 진행됩니다.",
    ),
    # ---- budgets (tg_git/domain/budget.py, `tg-git statusline`) -----------------------------------
    "config_kind.context": (
        '"auto" (the window the agent reports) or a window in tokens',
        '"auto"(에이전트가 알려 주는 창) 또는 토큰 단위의 창 크기',
    ),
    "config_kind.spend": ("a whole number of tokens, or off", "토큰 수(정수) 또는 off"),
    "config_kind.usd": ("an amount in US dollars, or off", "미국 달러 금액 또는 off"),
    "config_bad_context": (
        '{where}: `budget.context` must be "auto" or a window in tokens such as 200000, '
        "not {value!r}.",
        '{where}: `budget.context`는 "auto" 또는 200000 같은 토큰 단위의 창 크기여야 합니다 '
        "({value!r} 불가).",
    ),
    "config_bad_spend_tokens": (
        "{where}: `budget.spend_tokens` must be a whole number of tokens (0: off), not {value!r}.",
        "{where}: `budget.spend_tokens`는 토큰 수(정수, 0은 끔)여야 합니다({value!r} 불가).",
    ),
    "config_bad_spend_usd": (
        "{where}: `budget.spend_usd` must be an amount in US dollars such as 20 (0: off), "
        "not {value!r}.",
        "{where}: `budget.spend_usd`는 20 같은 미국 달러 금액(0은 끔)이어야 합니다"
        "({value!r} 불가).",
    ),
    "statusline": (
        "tg-git 🔋 ctx {used}/{window} ({pct}%) · {spend} · {level}",
        "tg-git 🔋 컨텍스트 {used}/{window} ({pct}%) · {spend} · {level}",
    ),
    "statusline_spend": ("spent {tokens}{of}{usd}{pct}", "사용 {tokens}{of}{usd}{pct}"),
    "spend_line": (
        "Spend: ~{tokens:,} tokens{usd} · {budget}",
        "사용량: ~{tokens:,} 토큰{usd} · {budget}",
    ),
    "spend_budget": (
        "budget {limits}: {pct}%, {level}",
        "예산 {limits}: {pct}%, {level}",
    ),
    "spend_off": (
        "no spend budget (`tg-git config set budget.spend_tokens N`)",
        "사용 예산 없음 (`tg-git config set budget.spend_tokens N`)",
    ),
    "spend_unpriced": (
        "{n:,} tokens of models the price table does not know count as tokens only, not USD.",
        "가격표에 없는 모델의 {n:,} 토큰은 달러 없이 토큰으로만 계산됩니다.",
    ),
    "prices_about": (
        "Prices: tg-git's offline table of {date} (its sources: docs/budgets.md).",
        "가격: tg-git 오프라인 가격표 {date} 기준 (출처: docs/budgets.md).",
    ),
    "statusline_halt_context": ("compact or /clear", "compact 또는 /clear 하세요"),
    "statusline_halt_spend": (
        "spend budget: `tg-git session start`",
        "사용 예산 소진: `tg-git session start`",
    ),
    # ---- hand-off (`tg-git resume --agent NAME`, tg_git/agents/handoff.py) ------------------
    "brief.written_by": ("**Saved by**", "**저장한 에이전트**"),
    "handoff.from": (
        "Hand-off: this checkpoint was saved by {by}; {to} continues from it.",
        "인계: 이 체크포인트는 {by}가 저장했습니다. {to}가 이어서 진행합니다.",
    ),
    "handoff.to": (
        "Hand-off: {to} continues from this checkpoint.",
        "인계: {to}가 이 체크포인트에서 이어서 진행합니다.",
    ),
    "handoff.skill": (
        "Skill: {path}: {wording}",
        "스킬: {path}: {wording}",
    ),
    "handoff.install": (
        "Run `tg-git agent install {agent}` first, so its hooks and skill are in place.",
        "먼저 `tg-git agent install {agent}`를 실행해 훅과 스킬을 설치하세요.",
    ),
    "handoff.start": (
        "Start it in this clone with `{start}`: its {event} hook hands the model this "
        "briefing and the new session's budget.",
        "이 클론에서 `{start}`로 시작하세요: {event} 훅이 이 브리핑과 새 세션의 예산을 모델에 "
        "전달합니다.",
    ),
    # ---- agent install lines (tg_git/agents/settings.py, skills.py) ------------------------
    "agent.not_regular": (
        "{path} is not a regular file; it was left untouched.",
        "{path}은(는) 일반 파일이 아니어서 건드리지 않았습니다.",
    ),
    "agent.cannot_read": (
        "cannot read {path} ({why}); it was left untouched.",
        "{path}을(를) 읽을 수 없어({why}) 건드리지 않았습니다.",
    ),
    "agent.not_json": (
        "{path} is not valid JSON{hint} ({why}); it was left untouched: fix it, then run "
        "`tg-git agent install` again.",
        "{path}은(는) 올바른 JSON이 아니어서{hint}({why}) 건드리지 않았습니다. 고친 뒤 "
        "`tg-git agent install`을 다시 실행하세요.",
    ),
    "agent.comments_hint": (
        " (tg-git edits plain JSON only: take the comments out)",
        " (tg-git은 주석 없는 JSON만 고칩니다. 주석을 지우세요)",
    ),
    "agent.not_object": (
        "{path} does not hold a JSON object; it was left untouched.",
        "{path}에 JSON 객체가 없어 건드리지 않았습니다.",
    ),
    "agent.field_not": (
        "{path}: {field} is not a JSON {kind}; it was left untouched.",
        "{path}: {field}이(가) JSON {kind}이(가) 아니어서 건드리지 않았습니다.",
    ),
    "agent.named_not_ours": (
        "{path}: the entry named {name!r} is not tg-git's; it was left untouched.",
        "{path}: {name!r} 항목은 tg-git의 것이 아니어서 건드리지 않았습니다.",
    ),
    "agent.not_toml": (
        "{path} is not valid TOML ({why}); it was left untouched.",
        "{path}은(는) 올바른 TOML이 아니어서({why}) 건드리지 않았습니다.",
    ),
    "agent.hooks_added": ("{path}: hooks {events}{note}", "{path}: 훅 {events}{note}"),
    "agent.already": ("{path}: already installed{note}", "{path}: 이미 설치됨{note}"),
    "agent.restored": ("{path}: restored as it was", "{path}: 원래대로 되돌렸습니다"),
    "agent.not_there": ("{path}: not there", "{path}: 없음"),
    "agent.removed_created": (
        "{path}: removed (tg-git had created it)",
        "{path}: 삭제함 (tg-git이 만든 파일)",
    ),
    "agent.hooks_removed": ("{path}: tg-git's hooks removed", "{path}: tg-git 훅을 뺐습니다"),
    "agent.no_ours": ("{path}: no tg-git hooks", "{path}: tg-git 훅 없음"),
    "agent.gemini_off": (
        "hooksConfig.enabled is false: Gemini CLI runs no hooks until it is true",
        "hooksConfig.enabled가 false입니다: true가 될 때까지 Gemini CLI는 훅을 실행하지 않습니다",
    ),
    "agent.codex_toml_hooks": (
        "config.toml beside it has [hooks] too: Codex loads both and warns",
        "옆의 config.toml에도 [hooks]가 있습니다: Codex는 둘 다 읽고 경고합니다",
    ),
    "agent.codex_restored": ("{path}: {key} restored", "{path}: {key} 복원됨"),
    "skill.written": ("{path}: written", "{path}: 작성함"),
    "skill.up_to_date": ("{path}: up to date", "{path}: 최신"),
    "skill.updated": ("{path}: updated", "{path}: 갱신함"),
    "skill.removed": ("{path}: removed", "{path}: 삭제함"),
    "skill.block_removed": ("{path}: tg-git's block removed", "{path}: tg-git 블록을 뺐습니다"),
    "skill.no_block": ("{path}: no tg-git block", "{path}: tg-git 블록 없음"),
    "agent.list_line": (
        "{agent:<12} hooks: repo {repo}, user {user} · events {events}{extra}{how} · skill "
        "{skills} · last import {last} ({n} transcript(s))",
        "{agent:<12} 훅: 저장소 {repo}, 사용자 {user} · 이벤트 {events}{extra}{how} · 스킬 {skills} · "
        "마지막 가져오기 {last} (기록 {n}개)",
    ),
    "agent.list_how": (
        " · blocks via {channel} · measured by {measures}",
        " · 차단 `{channel}` · 측정 `{measures}`",
    ),
    "agent.list_status_line": (" · status line", " · 상태 줄"),
    "agent.list_aligned": (" · compaction at {value}", " · 압축 기준 {value}"),
    "agent.list_never": ("never", "없음"),
    "agent.list_unreadable": ("{path} unreadable", "{path} 읽을 수 없음"),
    "agent.measures.claude": ("status line; transcript", "상태 줄, 대화 기록"),
    "agent.measures.codex": ("rollout token_count", "rollout의 token_count"),
    "agent.measures.gemini": (
        "AfterModel usageMetadata; chat log",
        "AfterModel의 usageMetadata, 대화 기록",
    ),
    "agent.measures.antigravity": (
        "its status-line JSON; else estimates",
        "상태 줄 JSON, 없으면 추정",
    ),
    "agent.measures.cursor": ("preCompact context_tokens", "preCompact의 context_tokens"),
    "agent.measures.copilot": ("estimates only", "추정만"),
    "init_keeps_session": (
        "tg-git: session {id} keeps its budget of {max:,} tokens; the new one applies from the "
        "next session (`tg-git session start`, or `tg-git init --new-session` now).",
        "tg-git: 세션 {id}은(는) 기존 예산 {max:,} 토큰을 유지합니다. 새 값은 다음 세션부터 "
        "적용됩니다(`tg-git session start`, 지금 바로는 `tg-git init --new-session`).",
    ),
    "recounted_late": (
        "tg-git: commit {commit} had passed uncounted; its {n:,} tokens are counted in this one.",
        "tg-git: 세지 않고 통과했던 커밋 {commit}의 {n:,} 토큰을 이번 커밋에서 셉니다.",
    ),
    "recounted": (
        "tg-git: counted {commit} ({n:,} tokens) in the ledger.",
        "tg-git: {commit}({n:,} 토큰)을 원장에 기록했습니다.",
    ),
    "accepted_committed": (
        "tg-git: committed the ledger ({path}) alone; your staged changes stay staged.",
        "tg-git: 원장({path})만 커밋했습니다. 스테이징한 변경 사항은 그대로 남아 있습니다.",
    ),
    "accepted_staged": (
        "tg-git: the ledger ({path}) could not be committed now (the halt?); it is staged for "
        "your next commit.",
        "tg-git: 지금은 원장({path})을 커밋할 수 없어(중단 수준?) 다음 커밋을 위해 스테이징해 "
        "두었습니다.",
    ),
    "accepted_nothing": (
        "tg-git: those commits are counted already; nothing to record.",
        "tg-git: 그 커밋들은 이미 기록되어 있습니다. 기록할 것이 없습니다.",
    ),
    "verify_accept_hint": (
        "tg-git: to accept them as they are, counted in the ledger: `{command}`.",
        "tg-git: 그대로 인정하고 원장에 기록하려면: `{command}`.",
    ),
    "install_not_init": (
        "tg-git: not set up in this repository yet, so commits are not counted: run "
        "`tg-git init` (then commit .tg-git/ and .gitattributes).",
        "tg-git: 이 저장소는 아직 설정되지 않아 커밋이 계산되지 않습니다. `tg-git init`을 "
        "실행하세요(그다음 .tg-git/와 .gitattributes를 커밋).",
    ),
    "hook_not_init": (
        "tg-git: not set up in this repository, so this commit is not counted; run `tg-git init`.",
        "tg-git: 이 저장소는 설정되지 않아 이 커밋은 계산되지 않습니다. `tg-git init`을 "
        "실행하세요.",
    ),
    "install_framework_runs": (
        "tg-git: the pre-commit framework runs tg-git at {hooks} here (.pre-commit-config.yaml), "
        "so no native copy is installed there: each commit counts once.",
        "tg-git: 여기서는 pre-commit 프레임워크가 {hooks} 단계에서 tg-git을 실행하므로"
        "(.pre-commit-config.yaml) 그곳에는 네이티브 훅을 설치하지 않습니다. 커밋마다 한 번만 "
        "셉니다.",
    ),
    "hook_twice": (
        "tg-git: installed twice here (native hooks and the pre-commit framework); only the "
        "framework's counts: run `tg-git install` once to remove the native copies.",
        "tg-git: 여기에 두 번 설치되어 있습니다(네이티브 훅과 pre-commit 프레임워크). "
        "프레임워크 쪽만 셉니다. `tg-git install`을 한 번 실행해 네이티브 사본을 없애세요.",
    ),
    "framework_wrote": (
        "tg-git: added tg-git's `repo: local` hooks to {path} (your lines are unchanged).",
        "tg-git: {path}에 tg-git의 `repo: local` 훅을 추가했습니다(기존 줄은 그대로입니다).",
    ),
    "framework_listed": (
        "tg-git: {path} lists tg-git's hooks already; it was not changed.",
        "tg-git: {path}에 tg-git 훅이 이미 있어 바꾸지 않았습니다.",
    ),
    "framework_not_a_file": (
        "{path} is not a regular file (a link or a folder); add the block of "
        "`tg-git install --pre-commit` to the real file yourself.",
        "{path}이(가) 일반 파일이 아닙니다(링크나 폴더). 실제 파일에 직접 블록을 추가하세요.",
    ),
    "framework_not_appendable": (
        "{path} has no block-style top-level `repos:` list that tg-git can append to safely, "
        "so it was not changed; paste the block printed above under `repos:` yourself.",
        "{path}에 tg-git이 안전하게 덧붙일 수 있는 블록 형식의 최상위 `repos:` 목록이 없어 "
        "바꾸지 않았습니다. 위에 출력된 블록을 `repos:` 아래에 직접 붙여 넣으세요.",
    ),
    "framework_removed_native": (
        "tg-git: removed tg-git's native {hooks} hooks: the framework runs tg-git now.",
        "tg-git: tg-git의 네이티브 훅({hooks})을 제거했습니다. 이제 프레임워크가 tg-git을 "
        "실행합니다.",
    ),
    "framework_next": (
        "tg-git: next, commit .pre-commit-config.yaml and run `{command}`.",
        "tg-git: 다음으로 .pre-commit-config.yaml을 커밋하고 `{command}`를 실행하세요.",
    ),
    "brief.agent_files": (
        "**tg-git's agent wiring, not committed** (not your work in progress; commit it to give "
        "everyone who clones the same hooks, or list it in .git/info/exclude to keep it "
        "yours): {files}",
        "**커밋되지 않은 tg-git 에이전트 설정** (진행 중인 작업이 아닙니다. 클론하는 모두에게 같은 "
        "훅을 주려면 커밋하고, 혼자 쓰려면 .git/info/exclude에 적으세요): {files}",
    ),
    "doctor.twice": ("installed twice", "이중 설치"),
    "doctor_twice": (
        "tg-git runs twice at {hooks} (native hooks and the pre-commit framework); only one "
        "copy counts",
        "{hooks} 단계에서 tg-git이 두 번 실행됩니다(네이티브 훅과 pre-commit 프레임워크). "
        "한쪽만 셉니다",
    ),
    "doctor_twice_fix": (
        "run `tg-git install` (it removes the native copies the framework runs).",
        "`tg-git install`을 실행하세요(프레임워크가 실행하는 네이티브 사본을 없앱니다).",
    ),
    "accept_subject": (
        "tg-git: count {commits} (passed uncounted)",
        "tg-git: {commits} 기록 (세지 않고 통과했던 커밋)",
    ),
    "earlier_row_one": ("Output 1: earlier commit", "출력 1: 이전 커밋"),
    # ---- hostile input (issue 21) ---------------------------------------------------------
    "usage_not_regular": (
        "skipped {name}: not a regular file (tg-git reads no FIFO, device or link there).",
        "{name} 건너뜀: 일반 파일이 아닙니다(tg-git은 FIFO·장치·링크를 읽지 않습니다).",
    ),
    "usage_too_big": (
        "skipped {name}: over {limit:,} bytes, more than the agent ever writes there.",
        "{name} 건너뜀: {limit:,}바이트를 넘어 에이전트가 쓰는 크기가 아닙니다.",
    ),
    "budget_too_large": (
        "the budget must be at most {most} tokens, the most a ledger reads back; use one "
        "such as 200000.",
        "토큰 예산은 원장이 읽을 수 있는 최대값 {most} 토큰 이하여야 합니다. 200000 같은 값을 "
        "쓰세요.",
    ),
    "project_name_long": (
        "project_name must be at most {most:,} characters, as a checkpoint holds it; use a "
        "shorter name.",
        "project_name은 체크포인트에 담기는 최대 {most:,}자 이하여야 합니다. 더 짧은 이름을 "
        "쓰세요.",
    ),
    "write_through_link": (
        "{path} is a symbolic link, and tg-git writes nothing through one (it could lead "
        "outside the repository); replace it with a plain file or folder.",
        "{path}는 심볼릭 링크이며 tg-git은 링크를 통해 쓰지 않습니다(저장소 밖을 가리킬 수 "
        "있습니다). 일반 파일이나 폴더로 바꾸세요.",
    ),
    "usage_foreign": (
        "refused {path}: it is not a transcript of this work tree, so its tokens are not "
        "this repository's.",
        "{path} 거부: 이 작업 트리의 트랜스크립트가 아니므로 그 토큰은 이 저장소의 것이 아닙니다.",
    ),
}

LANGUAGES = ("en", "ko")

# argparse's own error sentences (CPython 3.10-3.13) and their Korean; groups keep what it named.
ARGPARSE_KO = (
    (r"the following arguments are required: (.+)", "필요한 인수가 없습니다: {0}"),
    (r"one of the arguments (.+) is required", "다음 인수 중 하나가 필요합니다: {0}"),
    (r"unrecognized arguments: (.+)", "알 수 없는 인수: {0}"),
    (r"argument (.+?): invalid choice: (.+?) \(choose from (.+)\)", "인수 {0}: 잘못된 선택 {1} (선택지: {2})"),
    (r"argument (.+?): invalid (\S+) value: (.+)", "인수 {0}: 잘못된 {1} 값 {2}"),
    (r"argument (.+?): expected one argument", "인수 {0}: 값이 하나 필요합니다"),
    (r"argument (.+?): expected at least one argument", "인수 {0}: 값이 하나 이상 필요합니다"),
    (r"argument (.+?): not allowed with argument (.+)", "인수 {0}: {1}와 함께 쓸 수 없습니다"),
    (r"argument (.+?): ignored explicit argument (.+)", "인수 {0}: 값 {1}은 받지 않습니다"),
    (r"ambiguous option: (.+?) could match (.+)", "모호한 옵션: {0} (후보: {1})"),
)  # fmt: skip


def argparse_message(language: str, message: str) -> str:
    """One of argparse's error sentences in ``language`` (as argparse said it when unknown)."""
    if language != "ko":
        return message
    import re

    for pattern, korean in ARGPARSE_KO:
        found = re.fullmatch(pattern, message)
        if found:
            return korean.format(*found.groups())
    return message


def text(language: str, key: str, /, **values: Any) -> str:
    """The message ``key`` in ``language`` (English for an unknown language), formatted."""
    pair = MESSAGES[key]
    template = pair[1] if language == "ko" else pair[0]
    return template.format(**values) if values else template
