"""The `--help` pages: each command's and option's help, argparse's own words, `hook --help`.

Keys follow the parser: ``help.COMMAND`` is a command's one line (and its page's description),
``help.COMMAND.DEST`` an argument's help (``help.task.add.title``); ``*`` stands for any one
command where several share a help (``help.*.json``, ``help.agent.*.user``). The texts go
through argparse, so a literal percent sign is ``%%``; ``{keys}`` is the config's key list and
a literal brace is doubled. The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- argparse's own words

argparse.usage
    en  "usage: "
    ko  "사용법: "

argparse.positionals
    en  positional arguments
    ko  위치 인수

argparse.options
    en  options
    ko  옵션

argparse.command
    en  COMMAND
    ko  명령

# ---- placeholders of argument values, as a help page shows them

metavar.AGENT
    en  AGENT
    ko  에이전트

metavar.AT
    en  AT
    ko  지점

metavar.COMMIT
    en  COMMIT
    ko  커밋

metavar.FILE
    en  FILE
    ko  파일

metavar.FORMAT
    en  FORMAT
    ko  형식

metavar.HOOK
    en  HOOK
    ko  훅

metavar.LABEL
    en  LABEL
    ko  이름

metavar.LANGUAGE
    en  LANGUAGE
    ko  언어

metavar.MESSAGE
    en  MESSAGE
    ko  메시지

metavar.N
    en  N
    ko  수

metavar.NAME
    en  NAME
    ko  이름

metavar.PATH
    en  PATH
    ko  경로

metavar.PROFILE
    en  PROFILE
    ko  프로필

metavar.TAG
    en  TAG
    ko  태그

metavar.TEXT
    en  TEXT
    ko  텍스트

metavar.URL
    en  URL
    ko  주소

metavar.WHY
    en  WHY
    ko  이유

metavar.X
    en  X
    ko  금액

metavar.key
    en  key
    ko  키

metavar.name
    en  name
    ko  이름

metavar.text
    en  text
    ko  텍스트

metavar.title
    en  title
    ko  제목

metavar.value
    en  value
    ko  값

argparse.default
    en  " (default: %(default)s)"
    ko  " (기본값: %(default)s)"

help.*.help
    en  show this help message and exit
    ko  이 도움말을 보여 주고 끝냅니다

help.*.version
    en  show program's version number and exit
    ko  프로그램 버전을 보여 주고 끝냅니다

help.*.json
    en  one JSON object on stdout (errors too: {{error, code}})
    ko  표준 출력에 JSON 객체 하나 (오류도: {{error, code}})

# ---- the commands

help.tg-git
    en  Token Guard for Git: a token budget for agent sessions, kept in git.
    ko  토큰 가드(tg-git): 에이전트 세션의 토큰 예산을 git에 기록하며 지킵니다.

help.init
    en  write config, ledger and .gitattributes; start a session
    ko  설정, 원장, .gitattributes를 쓰고 세션을 시작합니다

help.init.max_tokens
    en  tokens per session (default: 200000, or the config's when set up; given on a set-up repository, it is written to the config)
    ko  세션당 토큰 (기본값: 200000, 설정된 저장소에서는 설정 파일의 값; 설정된 저장소에서 주면 설정 파일에 씁니다)

help.init.language
    en  language of messages and checkpoints (default: the config's; before one, the locale's: ko when LC_ALL, LC_MESSAGES or LANG starts with ko, else en)
    ko  메시지와 체크포인트의 언어 (기본값: 설정 파일의 값; 설정 전에는 로캘의 언어: LC_ALL, LC_MESSAGES 또는 LANG이 ko로 시작하면 ko, 아니면 en)

help.init.new_session
    en  on a set-up repository, also start a new session (default: keep the current one)
    ko  설정된 저장소에서 새 세션도 시작합니다 (기본값: 현재 세션 유지)

help.install
    en  install the native git hooks (existing hooks are kept); push.followTags
    ko  git 네이티브 훅을 설치합니다 (기존 훅은 유지); push.followTags 설정

help.install.pre_commit
    en  through the pre-commit framework instead: add tg-git's `repo: local` hooks to .pre-commit-config.yaml (your lines kept) and remove tg-git's native hooks
    ko  대신 pre-commit 프레임워크로: .pre-commit-config.yaml에 tg-git의 `repo: local` 훅을 추가하고 (기존 줄 유지) tg-git의 네이티브 훅은 지웁니다

help.uninstall
    en  remove tg-git's hooks and restore the ones it kept
    ko  tg-git 훅을 지우고 보관해 둔 기존 훅을 되돌립니다

help.uninstall.purge
    en  also remove .tg-git/ (config, ledger) and the .gitattributes line; never history
    ko  .tg-git/ 폴더(설정, 원장)와 .gitattributes 줄도 지웁니다; 히스토리는 건드리지 않습니다

help.hook
    en  what the git hooks run (`tg-git hook --help`)
    ko  git 훅이 실행하는 명령 (`tg-git hook --help`)

help.hook.name
    en  pre-commit, pre-merge-commit, post-commit, post-merge or pre-push
    ko  pre-commit, pre-merge-commit, post-commit, post-merge 또는 pre-push

help.status
    en  the token gauge and the level
    ko  토큰 게이지와 단계

help.estimate
    en  estimate the tokens of files, stdin or the staged change
    ko  파일, 표준 입력 또는 스테이징된 변경의 토큰을 추정합니다

help.estimate.paths
    en  files or directories; - for stdin
    ko  파일이나 폴더; 표준 입력은 -

help.estimate.staged
    en  estimate the index against HEAD, exactly as the commit hook counts
    ko  커밋 훅이 집계하는 그대로 HEAD 대비 인덱스를 추정합니다

help.estimate.profile
    en  estimator profile: o200k, cl100k, claude, llama3, qwen3, seed (default: the config's profile, o200k)
    ko  추정 프로필: o200k, cl100k, claude, llama3, qwen3, seed (기본값: 설정 파일의 프로필, o200k)

help.record
    en  record input tokens
    ko  입력 토큰을 기록합니다

help.record.input
    en  text the agent read (it is estimated, never stored)
    ko  에이전트가 읽은 텍스트 (추정만 하고 저장하지 않습니다)

help.record.input_file
    en  a file the agent read (estimated)
    ko  에이전트가 읽은 파일 (추정)

help.record.tokens
    en  a count you already know
    ko  이미 아는 토큰 수

help.record.label
    en  a short label for the ledger (default: none; the file name with --input-file)
    ko  원장에 남길 짧은 이름 (기본값: 없음; --input-file이면 파일 이름)

help.session
    en  sessions
    ko  세션

help.session.start
    en  start a new session (the plan carries over)
    ko  새 세션을 시작합니다 (계획은 이어집니다)

help.session.start.max_tokens
    en  this session's budget (default: the config's max_tokens)
    ko  이 세션의 예산 (기본값: 설정 파일의 max_tokens)

help.task
    en  the plan: add, start, done, block, list
    ko  계획: 추가, 시작, 완료, 막힘, 목록

help.task.add
    en  add a pending task
    ko  대기 작업을 추가합니다

help.task.start
    en  start a task (it must have been added)
    ko  작업을 시작합니다 (먼저 추가되어 있어야 합니다)

help.task.done
    en  mark a task done
    ko  작업을 완료로 표시합니다

help.task.block
    en  mark a task blocked, with its blocker
    ko  작업을 막힘으로 표시하고 막힌 이유를 남깁니다

help.task.list
    en  the plan: tasks by status, next steps
    ko  계획: 상태별 작업과 다음 단계

help.task.*.title
    en  the task's title, one line
    ko  작업 제목, 한 줄

help.task.start.at
    en  stopping point: where the work stands (default: none)
    ko  중단 지점: 작업이 어디까지 왔는지 (기본값: 없음)

help.task.block.why
    en  the blocker (default: none)
    ko  막힌 이유 (기본값: 없음)

help.checkpoint
    en  save a checkpoint commit and tag now
    ko  지금 체크포인트 커밋과 태그를 저장합니다

help.checkpoint.message
    en  a message kept in the checkpoint (default: none)
    ko  체크포인트에 남길 메시지 (기본값: 없음)

help.log
    en  list checkpoints, newest first
    ko  체크포인트 목록, 최신순

help.resume
    en  restore from the newest checkpoint and start a new session
    ko  최신 체크포인트에서 복원하고 새 세션을 시작합니다

help.resume.from_tag
    en  resume from this checkpoint tag (default: the newest that loads)
    ko  이 체크포인트 태그에서 재개합니다 (기본값: 읽을 수 있는 최신 체크포인트)

help.resume.commit
    en  commit the ledger afterwards
    ko  끝난 뒤 원장을 커밋합니다

help.resume.max_tokens
    en  the new session's budget (default: the config's max_tokens)
    ko  새 세션의 예산 (기본값: 설정 파일의 max_tokens)

help.resume.install
    en  install this clone's hooks first
    ko  먼저 이 클론에 훅을 설치합니다

help.resume.agent
    en  hand the work to this agent (claude, codex, gemini, antigravity, cursor, copilot): its skill and start command are printed, and its next session start is briefed from the same checkpoint (default: none)
    ko  이 에이전트에게 작업을 넘깁니다 (claude, codex, gemini, antigravity, cursor, copilot): 그 스킬과 시작 명령을 출력하고, 다음 세션 시작 때 같은 체크포인트로 브리핑합니다 (기본값: 없음)

help.verify
    en  recompute the ledger from history; exit 6 on drift
    ko  히스토리로 원장을 다시 계산합니다; 불일치면 종료 코드 6

help.verify.accept
    en  record these commits as counted (the tokens their change estimates), in a commit of the ledger alone; for a commit that passed uncounted
    ko  이 커밋들을 집계된 것으로 기록합니다(변경에서 추정한 토큰). 원장만 담은 커밋으로 기록하며, 집계되지 않고 통과한 커밋에 씁니다

help.verify.range
    en  check these commits (A..B) instead, and what they cost against the limits
    ko  대신 이 커밋들(A..B)을 확인하고, 든 비용을 한도와 비교합니다

help.verify.max_tokens
    en  the most tokens the range may cost; over it, exit 6
    ko  범위가 쓸 수 있는 최대 토큰; 넘으면 종료 코드 6

help.verify.max_usd
    en  the most USD the range may cost; over it, exit 6
    ko  범위가 쓸 수 있는 최대 USD; 넘으면 종료 코드 6

help.repair
    en  rebuild the ledger from every version in history and this clone's journal
    ko  히스토리의 모든 버전과 이 클론의 저널로 원장을 다시 만듭니다

help.repair.json
    en  print the result as one JSON object
    ko  결과를 JSON 객체 하나로 출력합니다

help.note
    en  critical context for the next session
    ko  다음 세션에 꼭 필요한 맥락

help.note.text
    en  what the next session must know, one line
    ko  다음 세션이 알아야 할 것, 한 줄

help.next
    en  a next step
    ko  다음 단계

help.next.text
    en  the step (default: none; then give --clear)
    ko  단계 (기본값: 없음; 그때는 --clear를 주세요)

help.next.clear
    en  clear the next steps first
    ko  먼저 다음 단계를 비웁니다

help.doctor
    en  check hooks, pre-commit wiring, config, ledger, tags on the remote
    ko  훅, pre-commit 연결, 설정, 원장, 원격의 태그를 점검합니다

help.demo
    en  the whole job on a built-in session, in a temporary repository
    ko  내장 세션으로 전체 작업을 임시 저장소에서 보여 줍니다

help.demo.keep
    en  keep the demo repositories
    ko  데모 저장소를 남깁니다

help.demo.language
    en  language of the demo's story and messages (default: en)
    ko  데모 이야기와 메시지의 언어 (기본값: en)

help.report
    en  one self-contained HTML page: burn-down, costliest, sessions
    ko  독립된 HTML 페이지 하나: 소진 추이, 비용이 큰 항목, 세션

help.report.output
    en  where to write it (- for stdout)
    ko  쓸 위치 (표준 출력은 -)

help.report.session
    en  draw this session (default: the current)
    ko  이 세션을 그립니다 (기본값: 현재 세션)

help.report.all
    en  draw every session
    ko  모든 세션을 그립니다

help.report.json
    en  print the numbers instead
    ko  대신 숫자를 출력합니다

help.report.open
    en  open the page in a browser
    ko  브라우저에서 페이지를 엽니다

help.report.range
    en  what the commits A..B cost, per session, agent, model and author (a receipt, not the page)
    ko  커밋 A..B에 든 비용을 세션, 에이전트, 모델, 작성자별로 (페이지 대신 영수증)

help.report.format
    en  markdown: the receipt for a pull request comment or a CI summary
    ko  markdown: 풀 리퀘스트 댓글이나 CI 요약에 넣을 영수증

help.metrics
    en  the ledger as Prometheus metrics; pushed, or sent as OTLP
    ko  원장을 Prometheus 지표로; 푸시하거나 OTLP로 보냅니다

help.metrics.push
    en  send them to this Pushgateway (http://HOST:9091)
    ko  이 Pushgateway로 보냅니다 (http://HOST:9091)

help.metrics.otlp
    en  send them to this OTLP/HTTP endpoint (http://HOST:4318/v1/metrics)
    ko  이 OTLP/HTTP 엔드포인트로 보냅니다 (http://HOST:4318/v1/metrics)

help.metrics.hook
    en  in this clone, push them after every commit where the config's [export] says (on), or stop (off)
    ko  이 클론에서 커밋할 때마다 설정의 [export]가 가리키는 곳으로 보냅니다(on), 또는 멈춥니다(off)

help.config
    en  read or change .tg-git/config.toml (validated)
    ko  .tg-git/config.toml을 읽거나 바꿉니다 (검증함)

help.config.get
    en  print a value (the default when unset)
    ko  값을 출력합니다 (설정되지 않았으면 기본값)

help.config.set
    en  change a value, keeping the file's comments
    ko  값을 바꿉니다 (파일의 주석은 유지)

help.config.*.key
    en  one of: {keys}
    ko  다음 중 하나: {keys}

help.config.set.value
    en  the new value
    ko  새 값

help.usage
    en  measured usage from agent logs: spend per model and turn
    ko  에이전트 로그에서 측정한 사용량: 모델별, 턴별 사용량

help.usage.import
    en  import what is new in this work tree's agent transcripts
    ko  이 작업 트리의 에이전트 대화 기록에서 새로운 것을 가져옵니다

help.usage.import.agent
    en  only this agent's transcripts (default: every agent found)
    ko  이 에이전트의 대화 기록만 (기본값: 찾은 모든 에이전트)

help.usage.import.transcript
    en  read this transcript (default: the ones of this work tree)
    ko  이 대화 기록을 읽습니다 (기본값: 이 작업 트리의 대화 기록)

help.usage.import.session
    en  only the agent session with this id (default: all)
    ko  이 id의 에이전트 세션만 (기본값: 전부)

help.agent
    en  wire tg-git into Claude Code, Codex, Gemini CLI, Antigravity, Cursor, Copilot CLI
    ko  Claude Code, Codex, Gemini CLI, Antigravity, Cursor, Copilot CLI에 tg-git을 연결합니다

help.agent.install
    en  install tg-git's agent hooks and skill files
    ko  tg-git의 에이전트 훅과 스킬 파일을 설치합니다

help.agent.uninstall
    en  uninstall tg-git's agent hooks and skill files
    ko  tg-git의 에이전트 훅과 스킬 파일을 제거합니다

help.agent.*.agents
    en  claude, codex, gemini, antigravity, cursor, copilot or all (default: all: every agent whose folder or settings are here or in your home)
    ko  claude, codex, gemini, antigravity, cursor, copilot 또는 all (기본값: all: 이 저장소나 홈 폴더에 폴더나 설정이 있는 모든 에이전트)

help.agent.*.user
    en  the user's settings, not the repository's (default: the repository's)
    ko  저장소가 아닌 사용자 설정 (기본값: 저장소 설정)

help.agent.*.shared
    en  the repository's shared settings file, usually committed, with the portable `tg-git` command (default: Claude Code's local .claude/settings.local.json, kept out of git, by this Python's path; the other agents have only the shared file)
    ko  보통 커밋되는 저장소의 공유 설정 파일에 이식 가능한 `tg-git` 명령으로 씁니다 (기본값: Claude Code는 git에서 제외되는 로컬 파일 .claude/settings.local.json에 이 파이썬 경로로 씁니다. 다른 에이전트에는 공유 파일만 있습니다)

help.agent.install.align_compaction
    en  also set the agent's own compaction threshold (Claude autoCompactWindow, Codex model_auto_compact_token_limit, Gemini model.compressionThreshold) between tg-git's force-save and halt; uninstall puts it back (default: off)
    ko  에이전트 자체의 압축 기준도 tg-git의 강제 저장과 중단 사이로 맞춥니다 (Claude autoCompactWindow, Codex model_auto_compact_token_limit, Gemini model.compressionThreshold); 제거하면 되돌립니다 (기본값: 끔)

help.agent.list
    en  each agent: where it is wired, events, block channel, last import
    ko  에이전트마다: 연결된 곳, 이벤트, 차단 채널, 마지막 가져오기

help.agent.status
    en  each agent: where it is wired, events, block channel, last import
    ko  에이전트마다: 연결된 곳, 이벤트, 차단 채널, 마지막 가져오기

help.statusline
    en  an agent's status line: its JSON on stdin, both budgets in one line
    ko  에이전트의 상태 줄: 표준 입력의 JSON, 두 예산을 한 줄에

help.statusline.agent
    en  whose JSON is on stdin (default: claude)
    ko  표준 입력의 JSON을 보낸 에이전트 (기본값: claude)

help.statusline.no_color
    en  no colour (NO_COLOR does the same)
    ko  색 없이 (NO_COLOR도 같습니다)

# ---- `tg-git hook --help` (no argparse on the hook path)

help.hook_page
    en  usage: tg-git hook NAME

        What the git hooks run (the native shims `tg-git install` writes, and the pre-commit
        framework's hooks). You do not run these by hand.

          pre-commit        count the staged change into the ledger; refuse at halt
          pre-merge-commit  the same for a clean merge's commit (git merge, git pull)
          post-commit       save a checkpoint at force-save / halt; repair the index
          post-merge        the same save after a merge or pull that git committed
          pre-push          refuse a push whose history drifts from the ledger

        A tool error never blocks a commit: only the halt level refuses (exit 7).
    ko  사용법: tg-git hook 이름

        git 훅이 실행하는 명령입니다 (`tg-git install`이 쓰는 훅 스크립트와 pre-commit
        프레임워크의 훅). 직접 실행할 일은 없습니다.

          pre-commit        스테이징된 변경을 원장에 집계; 중단 단계에서는 거부
          pre-merge-commit  충돌 없는 병합 커밋에서도 같은 집계 (git merge, git pull)
          post-commit       강제 저장 / 중단 단계에서 체크포인트 저장; 인덱스 복구
          post-merge        git이 커밋한 병합이나 `git pull` 뒤에도 같은 저장
          pre-push          히스토리가 원장과 어긋나는 푸시를 거부

        도구 오류는 커밋을 막지 않습니다: 중단 단계만 거부합니다 (종료 코드 7).

# ---- `tg-git statusline --help` (the status line's hot path has no argparse)

help.statusline_page
    en  usage: tg-git statusline [--agent claude|antigravity|copilot] [--no-color]
    ko  사용법: tg-git statusline [--agent claude|antigravity|copilot] [--no-color]
"""
