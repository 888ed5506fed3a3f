"""What the git hooks print: the levels, the gauge, the warning and halt blocks, a hook's
tool error, the pre-push refusal, the checkpoint commit's subject, the budgets.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- levels (what the hooks print)

level.ok
    en  ok
    ko  정상

level.warning
    en  warning
    ko  경고

level.force-save
    en  force-save
    ko  강제 저장

level.halt
    en  halt
    ko  중단

gauge
    en  tg-git 🔋 ~{used:,}/{max:,} tokens ({pct}%) · {level} · this commit +{delta:,}
    ko  tg-git 🔋 ~{used:,}/{max:,} 토큰 ({pct}%) · {level} · 이번 커밋 +{delta:,}

warning
    en  > ⚠️ **Token warning**: ~{used:,}/{max:,} used ({pct}%)
        > Finish what the remaining tokens can complete first.
        > Current work: {current}
        > Remaining: {pending}
    ko  > ⚠️ **토큰 경고**: ~{used:,}/{max:,} 사용 ({pct}%)
        > 남은 토큰으로 완료 가능한 작업을 우선 처리합니다.
        > 현재 작업: {current}
        > 남은 작업: {pending}

halt
    en  > 🔴 **Token limit reached**: stopping now.
        > Checkpoint saved: `harness_checkpoint.json`
        > Resume in a new session with "continue" (`tg-git resume`).
    ko  > 🔴 **토큰 한계 도달**: 즉시 중단합니다.
        > 체크포인트가 저장되었습니다: `harness_checkpoint.json`
        > 새 세션에서 "이어서 해줘"로 재개하세요 (`tg-git resume`).

halt_fix
    en  tg-git: commit refused: this session's budget is spent. Your changes are still staged. Start a new session (`tg-git resume` or `tg-git session start`), or commit anyway with TG_GIT_ALLOW_HALT=1 (recorded in the ledger).
    ko  tg-git: 커밋 거부: 이 세션의 토큰 예산이 소진되었습니다. 변경 사항은 스테이징된 채로 남아 있습니다. 새 세션을 시작하거나(`tg-git resume` 또는 `tg-git session start`), TG_GIT_ALLOW_HALT=1 로 강제 커밋하세요(원장에 기록됨).

halt_crossed
    en  > 🔴 **Token limit reached**: this commit lands and a checkpoint is saved right after it.
        > The NEXT commit of this session will be refused. Start a new session with `tg-git resume` (or `tg-git session start`), or commit anyway with TG_GIT_ALLOW_HALT=1.
    ko  > 🔴 **토큰 한계 도달**: 이 커밋은 반영되고 바로 뒤에 체크포인트가 저장됩니다.
        > 이 세션의 다음 커밋은 거부됩니다. `tg-git resume`(또는 `tg-git session start`)으로 새 세션을 시작하거나, TG_GIT_ALLOW_HALT=1 로 강제 커밋하세요.

force_save_crossed
    en  tg-git: force-save level reached: a checkpoint is saved right after this commit.
    ko  tg-git: 강제 저장 단계 도달: 이 커밋 직후 체크포인트를 저장합니다.

override_recorded
    en  tg-git: committed past the halt level with TG_GIT_ALLOW_HALT=1; the override is recorded in the ledger (override = true).
    ko  tg-git: TG_GIT_ALLOW_HALT=1 로 중단 단계를 넘어 커밋했습니다. 이 강제 커밋은 원장에 기록됩니다 (override = true).

none
    en  none
    ko  없음

budget_positive
    en  the budget must be a positive number of tokens, not {n}; use one such as 200000.
    ko  토큰 예산은 양수여야 합니다({n} 불가). 200000 같은 값을 쓰세요.

budget_collapses
    en  a budget of {n:,} tokens puts {a} and {b} at the same point ({at:,} tokens); use at least {least:,} tokens.
    ko  {n:,} 토큰 예산에서는 {a} 단계와 {b} 단계가 같은 지점({at:,} 토큰)이 됩니다. 최소 {least:,} 토큰을 쓰세요.

# ---- git hooks: a tool error, the pre-push refusal

hook_not_counted
    en  the commit was not blocked, but this commit is not counted
    ko  커밋은 막지 않았지만 이 커밋은 집계하지 않았습니다

hook_not_blocked
    en  the commit was not blocked
    ko  커밋은 막지 않았습니다

hook_not_blocked.post-merge
    en  the merge is done
    ko  병합은 완료되었습니다

hook_not_blocked.pre-push
    en  the push was not blocked
    ko  푸시는 막지 않았습니다

hook_refused
    en  tg-git: commit refused: {reason}
    ko  tg-git: 커밋 거부: {reason}

unstaged_ledger
    en  {path} has unstaged edits that tg-git did not make; stage them (`git add {path}`) or drop them (`git checkout -- {path}`), then try again.
    ko  {path}에 tg-git이 만들지 않은, 스테이징되지 않은 수정이 있습니다. 스테이징하거나(`git add {path}`) 버린 뒤(`git checkout -- {path}`) 다시 시도하세요.

hook_no_halt_save
    en  tg-git: no halt checkpoint was saved for this session yet; save one with `tg-git checkpoint` before you start a new session.
    ko  tg-git: 이 세션의 중단 체크포인트가 아직 저장되지 않았습니다. 새 세션을 시작하기 전에 `tg-git checkpoint`로 저장하세요.

hook_no_start
    en  tg-git: {path} has no session start, so this commit is not counted; run `tg-git repair`.
    ko  tg-git: {path}에 세션 시작이 없어 이 커밋은 집계하지 않았습니다. `tg-git repair`를 실행하세요.

hook_sparse
    en  tg-git: commit refused: this sparse checkout leaves out .tg-git/, so no commit here could be counted; run `git sparse-checkout add .tg-git`, then commit again.
    ko  tg-git: 커밋을 거부했습니다: 이 작업 트리는 `git sparse-checkout`으로 .tg-git/을 빼고 있어 여기서 한 커밋은 집계될 수 없습니다. `git sparse-checkout add .tg-git`을 실행한 뒤 다시 커밋하세요.

hook_unknown
    en  tg-git: unknown hook {name!r}; use pre-commit, pre-merge-commit, post-commit, post-merge or pre-push.
    ko  tg-git: 알 수 없는 훅 {name!r}입니다. pre-commit, pre-merge-commit, post-commit, post-merge, pre-push 중 하나를 쓰세요.

hook_crash
    en  tg-git: internal error in the {name} hook ({error}); the commit was not blocked; please report it.
    ko  tg-git: {name} 훅 내부 오류({error}). 커밋은 막지 않았습니다. 이 오류를 알려 주세요.

hook_failed
    en  tg-git: {reason} ({what})
    ko  tg-git: {reason} ({what})

hook_not_found
    en  tg-git: not found (was it uninstalled?); this {hook} hook did nothing. Reinstall tg-git or run `tg-git uninstall`.
    ko  tg-git: tg-git을 찾을 수 없습니다(제거되었나요?). 이 {hook} 훅은 아무 일도 하지 않았습니다. tg-git을 다시 설치하거나 `tg-git uninstall`을 실행하세요.

agent_hook_not_found
    en  tg-git: not found (was it uninstalled?); this agent hook did nothing and blocked nothing. Reinstall tg-git or remove its hooks from the agent's settings.
    ko  tg-git: tg-git을 찾을 수 없습니다(제거되었나요?). 이 에이전트 훅은 아무 일도 하지 않았고 아무것도 막지 않았습니다. tg-git을 다시 설치하거나 에이전트 설정에서 tg-git 훅을 지우세요.

status_line_not_found
    en  tg-git: not found (was it uninstalled?); no gauge to show. Reinstall tg-git or remove its status line from the agent's settings.
    ko  tg-git: tg-git을 찾을 수 없습니다(제거되었나요?). 표시할 게이지가 없습니다. tg-git을 다시 설치하거나 에이전트 설정에서 tg-git 상태 줄을 지우세요.

push_refused
    en  tg-git: push refused; `{command}` counts those commits in the ledger (in a commit of its own), then push again (or push with --no-verify).
    ko  tg-git: 푸시 거부: 다음 명령으로 그 커밋들을 원장에 집계(별도 커밋)한 뒤 다시 푸시하세요: `{command}` (또는 --no-verify로 푸시).

# ---- checkpoint commits

checkpoint_title
    en  {prefix} {level} at ~{used:,}/{max:,} tokens ({pct}%)
    ko  {prefix} {level} ~{used:,}/{max:,} 토큰 ({pct}%)

level.manual
    en  manual
    ko  수동

level.pre-compact
    en  pre-compact
    ko  압축 전

# ---- budgets (tg_git/domain/budget.py, `tg-git statusline`)

config_kind.context
    en  "auto" (the window the agent reports) or a window in tokens
    ko  "auto"(에이전트가 알려 주는 창) 또는 토큰 단위의 창 크기

config_kind.spend
    en  a whole number of tokens, or off
    ko  토큰 수(정수) 또는 off

config_kind.usd
    en  an amount in US dollars, or off
    ko  미국 달러 금액 또는 off

config_kind.share
    en  a share of the plan's window such as 0.3 or 30%, or off
    ko  0.3 또는 30% 같은 요금제 한도의 몫, 또는 off

config_bad_context
    en  {where}: `budget.context` must be "auto" or a window in tokens such as 200000, not {value!r}.
    ko  {where}: `budget.context`는 "auto" 또는 200000 같은 토큰 단위의 창 크기여야 합니다 ({value!r} 불가).

config_bad_spend_tokens
    en  {where}: `budget.spend_tokens` must be a whole number of tokens (0: off), not {value!r}.
    ko  {where}: `budget.spend_tokens`는 토큰 수(정수, 0은 끔)여야 합니다({value!r} 불가).

config_bad_spend_usd
    en  {where}: `budget.spend_usd` must be an amount in US dollars such as 20 (0: off), not {value!r}.
    ko  {where}: `budget.spend_usd`는 20 같은 미국 달러 금액(0은 끔)이어야 합니다({value!r} 불가).

config_bad_window
    en  {where}: `{key}` must be a share of the plan's window such as 0.3 or "30%" (0 or "off": off), not {value!r}.
    ko  {where}: `{key}` 값은 0.3 또는 "30%" 같은 요금제 한도의 몫(0 또는 "off"는 끔)이어야 합니다({value!r} 불가).

statusline
    en  tg-git 🔋 ctx {used}/{window} ({pct}%) · {spend} · {level}
    ko  tg-git 🔋 컨텍스트 {used}/{window} ({pct}%) · {spend} · {level}

statusline_spend
    en  spent {tokens}{of}{usd}{pct}
    ko  사용 {tokens}{of}{usd}{pct}

# ---- one figure per budget (status, the commit hook, checkpoints): each labelled

gauge_both
    en  tg-git 🔋 context ~{used:,}/{max:,} tokens ({pct}%{origin}) · spend ~{spent:,} tokens{usd}{of} · {level} · this commit +{delta:,}
    ko  tg-git 🔋 컨텍스트 ~{used:,}/{max:,} 토큰 ({pct}%{origin}) · 사용 ~{spent:,} 토큰{usd}{of} · {level} · 이번 커밋 +{delta:,}

gauge_origin
    en  ", {window_from}"
    ko  ", {window_from}"

status_context
    en  Context: ~{used:,} / {window:,} tokens ({pct}%) · {level} · {source} · {window_from} · max_tokens {max:,}
    ko  컨텍스트: ~{used:,} / {window:,} 토큰 ({pct}%) · {level} · {source} · {window_from} · max_tokens {max:,}

context_source.estimated
    en  estimated
    ko  추정

context_source.measured
    en  measured (agent logs)
    ko  측정(에이전트 기록)

context_source.mixed
    en  measured (agent logs) plus estimates since
    ko  측정(에이전트 기록) + 이후 추정

context_source.statusline
    en  measured (status line)
    ko  측정(상태 표시줄)

window_from.agent
    en  the window the agent reports
    ko  에이전트가 알려 준 창

window_from.budget.context
    en  the window set by budget.context
    ko  budget.context로 정한 창

window_from.max_tokens
    en  the window is max_tokens
    ko  창 = max_tokens

unrecorded_edit
    en  tg-git: the hand edit of {keys} in .tg-git/config.toml is ignored until it is recorded: `{commands}`
    ko  tg-git: .tg-git/config.toml에서 직접 고친 값({keys})은 기록하기 전까지 적용되지 않습니다. 기록하려면: `{commands}`

statusline_unrecorded
    en  hand edit ignored: `{command}`
    ko  직접 고친 값 무시됨: `{command}`

checkpoint_title_spend
    en  {prefix} {level} at ~{used:,}/{max:,} tokens of the spend budget ({pct}%)
    ko  {prefix} {level} 사용량 예산 ~{used:,}/{max:,} 토큰 ({pct}%)

checkpoint_title_spend_usd
    en  {prefix} {level} at ${used:,.2f}/${max:,.2f} of the spend budget ({pct}%)
    ko  {prefix} {level} 사용량 예산 ${used:,.2f}/${max:,.2f} ({pct}%)

checkpoint_title_window
    en  {prefix} {level} at {used}/{max} points of the plan's {name} window ({pct}%)
    ko  {prefix} {level} 요금제 {name} 한도 {used}/{max}%p ({pct}%)

# ---- the plan's windows (tg_git/domain/windows.py): status, the status line, the report

window_line
    en  Plan window {name} ({agent}): +{used}% of the window this session{share} · {level} · the plan at {plan}%{resets}{forecast}
    ko  요금제 한도 {name} ({agent}): 이번 세션에서 한도의 +{used}% 사용{share} · {level} · 요금제 전체 {plan}%{resets}{forecast}

window_share
    en  " of {share} allowed ({pct}%)"
    ko  " (허용 {share} 중 {pct}%)"

window_resets
    en  , resets {at}
    ko  , {at}에 초기화

window_forecast
    en  " · at this pace, the halt in ~{minutes} min"
    ko  " · 이 속도면 약 {minutes}분 뒤 중단"

window_spent
    en  " (+{spent}% in earlier windows)"
    ko  " (이전 한도에서 +{spent}%)"

statusline_window
    en  {name} +{used}%/{share}{pct}{resets}{forecast}
    ko  {name} 한도 +{used}%/{share}{pct}{resets}{forecast}

statusline_window_resets
    en  " ↻{at}"
    ko  " ↻{at} 초기화"

statusline_window_forecast
    en  " halt ~{minutes}m"
    ko  " 중단 ~{minutes}분"

statusline_halt_window
    en  plan window: `tg-git session start` or its reset
    ko  요금제 한도 소진: `tg-git session start` 또는 한도 초기화

spend_line
    en  Spend: ~{tokens:,} tokens{usd} · {budget}
    ko  사용량: ~{tokens:,} 토큰{usd} · {budget}

spend_budget
    en  budget {limits}: {pct}%, {level}
    ko  예산 {limits}: {pct}%, {level}

spend_off
    en  no spend budget (`tg-git config set budget.spend_tokens N`)
    ko  사용량 예산 없음 (`tg-git config set budget.spend_tokens N`)

spend_unpriced
    en  {n:,} tokens of models the price table does not know count as tokens only, not USD.
    ko  가격표에 없는 모델의 {n:,} 토큰은 달러 없이 토큰으로만 집계됩니다.

prices_about
    en  Prices: tg-git's offline table of {date} (its sources: docs/budgets.md).
    ko  가격: tg-git 오프라인 가격표 {date} 기준 (출처: docs/budgets.md).

statusline_halt_context
    en  compact or /clear
    ko  압축하거나 비우세요 (/compact, /clear)

statusline_halt_spend
    en  spend budget: `tg-git session start`
    ko  사용량 예산 소진: `tg-git session start`
"""
