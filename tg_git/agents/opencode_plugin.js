// tg-git: Token Guard for Git. `tg-git agent install opencode` writes this file and
// `tg-git agent uninstall opencode` removes it: edit neither by hand.
// Each OpenCode hook below runs tg-git's own hook command (and nothing else) with a small JSON
// payload on stdin: ids and token counts, never a prompt, a file or a reply.
import { spawn } from "node:child_process"

const COMMANDS = __TG_GIT_COMMANDS__
// A hook run that outlives this is ended, its whole process group: the shell's child too (a
// tool call's shell waits for tg-git in a pipe), SIGTERM then SIGKILL if it is still there.
const TIMEOUT_MS = 30000
const KILL_AFTER_MS = 2000

// One hook run at a time, in the order OpenCode sent its events: a reading lands before the
// turn's end is judged, and OpenCode waits for the last one at its exit (``dispose``).
let queue = Promise.resolve({})

function run(directory, event, payload) {
  const command = COMMANDS[event]
  if (!command) return Promise.resolve({})
  queue = queue.then(() => spawnHook(directory, command, payload))
  return queue
}

function spawnHook(directory, command, payload) {
  return new Promise((resolve) => {
    let out = ""
    let done = false
    const finish = (value) => {
      if (!done) {
        done = true
        resolve(value)
      }
    }
    let child
    try {
      child = spawn("/bin/sh", ["-c", command], {
        cwd: directory,
        stdio: ["pipe", "pipe", "ignore"],
        detached: true, // a process group of its own, to end whole
      })
    } catch {
      return finish({})
    }
    let closed = false
    const end = (signal) => {
      try {
        if (!closed && child.pid) process.kill(-child.pid, signal)
      } catch {}
    }
    const timer = setTimeout(() => {
      end("SIGTERM")
      setTimeout(() => end("SIGKILL"), KILL_AFTER_MS).unref()
      finish({})
    }, TIMEOUT_MS)
    child.stdout.on("data", (chunk) => {
      out += chunk
    })
    child.on("error", () => finish({}))
    child.on("close", () => {
      closed = true
      clearTimeout(timer)
      try {
        const line = out.trim().split("\n").pop()
        finish(line ? JSON.parse(line) : {})
      } catch {
        finish({})
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify({ cwd: directory, ...payload }))
  })
}

function fill(tokens) {
  const cache = (tokens && tokens.cache) || {}
  const parts = [tokens.input, tokens.output, tokens.reasoning, cache.read, cache.write]
  return parts.reduce((sum, n) => sum + (Number.isInteger(n) && n > 0 ? n : 0), 0)
}

export const TgGit = async ({ directory, client }) => {
  // A refusal is also said where the user looks: OpenCode's log and, in its TUI, a toast.
  const tell = async (message) => {
    try {
      await client.app.log({ body: { service: "tg-git", level: "error", message } })
    } catch {}
    try {
      await client.tui.showToast({ body: { message, variant: "error" } })
    } catch {}
  }

  const created = new Set() // sessions this process saw created
  const started = new Set() // sessions this process has briefed
  const context = new Map() // session -> text for the model in this turn
  const measured = new Map() // assistant message -> the fill last sent

  const say = (session, reply) => {
    if (reply && typeof reply.context === "string" && reply.context) {
      context.set(session, [context.get(session), reply.context].filter(Boolean).join("\n"))
    }
  }

  return {
    dispose: async () => {
      await queue
    },
    event: async ({ event }) => {
      const props = event.properties || {}
      const session = props.sessionID || (props.info && props.info.sessionID) || ""
      if (event.type === "session.created") {
        created.add((props.info && props.info.id) || session)
      } else if (event.type === "message.updated") {
        const info = props.info || {}
        if (info.role !== "assistant" || info.summary === true || info.mode === "compaction") return
        if (!info.time || !info.time.completed || !info.tokens) return
        const total = fill(info.tokens)
        if (!total || measured.get(info.id) === total) return
        measured.set(info.id, total)
        await run(directory, "message.updated", {
          session_id: info.sessionID || session,
          message_id: info.id,
          llm_response: { usageMetadata: { totalTokenCount: total } },
          llm_request: { model: info.modelID || "" },
        })
      } else if (event.type === "session.idle") {
        context.delete(session)
        await run(directory, "session.idle", { session_id: session })
      } else if (event.type === "session.compacted") {
        await run(directory, "session.compacted", { session_id: session })
      }
    },
    "chat.message": async (input) => {
      const session = input.sessionID
      context.delete(session)
      if (!started.has(session)) {
        started.add(session)
        const source = created.has(session) ? "startup" : "resume"
        say(session, await run(directory, "session.start", { session_id: session, source }))
      }
      const reply = await run(directory, "chat.message", { session_id: session })
      if (reply && typeof reply.block === "string" && reply.block) {
        await tell(reply.block)
        throw new Error(reply.block)
      }
      say(session, reply)
    },
    "experimental.chat.system.transform": async (input, output) => {
      const text = input.sessionID && context.get(input.sessionID)
      if (text) output.system.push(text)
    },
    "tool.execute.before": async (input, output) => {
      const reply = await run(directory, "tool.execute.before", {
        session_id: input.sessionID,
        tool_name: input.tool,
        tool_input: output.args,
      })
      if (reply && typeof reply.deny === "string" && reply.deny) throw new Error(reply.deny)
    },
    "experimental.session.compacting": async (input) => {
      await run(directory, "experimental.session.compacting", { session_id: input.sessionID })
    },
  }
}
