# SPDX-License-Identifier: GPL-3.0-or-later
"""A long automation session: N commands (edits, waits, state reads, malformed lines) against
one slicescope --automation process, and one line too long to read. Passes when every command
is answered in order, the process is alive at the end, malformed lines got errors, and its
resident memory grew by at most 10% from the end of the warm-up (the first fifth) to the end.
Its stderr is a pipe nobody reads during the session (a client that ignores it must never be
blocked): at the end it must be empty, Qt's messages being in the automation log instead.

    soak_automation.py SLICESCOPE [N]        (QT_QPA_PLATFORM=offscreen needs no display)
"""

import json
import os
import selectors
import subprocess
import sys
import tempfile
import time

EXPRESSIONS = ["x[1:4, ::-1]", "x[0]", "x[..., 2]", "x[None, 1, :, ::2]", "x[::-2, 3:0:-1]",
               "x[2:, :2, None]", "x[9]", "x[1:", "x[-1, -2]", "x[:, 1:5:2]"]
MALFORMED = ["not json", "{\"cmd\": 5}", "[1, 2]", "{\"cmd\": \"fly\"}",
             "{\"cmd\": \"set_cell\", \"index\": [99, 99], \"value\": \"1\"}", "{"]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    count = int(os.environ.get("SLICESCOPE_SOAK_COMMANDS", sys.argv[2] if len(sys.argv) > 2
                               else "2000"))
    scratch = tempfile.TemporaryDirectory(prefix="slicescope-soak-")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(scratch.name, "config"),
               XDG_DATA_HOME=os.path.join(scratch.name, "data"),
               XDG_CACHE_HOME=os.path.join(scratch.name, ".cache"), HOME=scratch.name)
    process = subprocess.Popen([binary, "--automation", "--shape", "6,7", "--expr", "x[1:3]"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, text=True, bufsize=1)
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)

    def ask(line, expect_id):
        process.stdin.write(line + "\n")
        process.stdin.flush()
        if not selector.select(60):
            raise SystemExit(f"no answer within 60 s to {line}")
        text = process.stdout.readline()
        if not text:
            raise SystemExit(f"slicescope ended after {line}")
        answer = json.loads(text)
        if answer.get("id") != expect_id:
            raise SystemExit(f"answer {text.strip()} is not for {line}")
        return answer

    started = time.monotonic()
    baseline = peak = 0
    errors = malformed = 0
    for i in range(count):
        if i % 50 == 49:
            answer = ask(MALFORMED[(i // 50) % len(MALFORMED)], None)
            malformed += 1
            if answer.get("ok") is not False or "code" not in answer.get("error", {}):
                raise SystemExit(f"malformed line {i} answered {answer}")
            continue
        kind = i % 5
        if kind == 0:
            command = {"cmd": "wait"}
        elif kind == 1:
            command = {"cmd": "state", "max_elements": 50, "max_cells": 50}
        elif kind == 2 and i % 20 == 2:
            command = {"cmd": "set_shape", "shape": [6, 7 + (i // 20) % 3]}
        elif kind == 3 and i % 30 == 3:
            command = {"cmd": "step", "to": "next"}
        else:
            command = {"cmd": "set_expr", "expr": EXPRESSIONS[(i * 7) % len(EXPRESSIONS)]}
        command["id"] = i
        answer = ask(json.dumps(command), i)
        if not answer.get("ok"):
            errors += 1
            if command["cmd"] not in ("step",):
                raise SystemExit(f"command {command} failed: {answer}")
        if i == count // 5:
            ask(json.dumps({"cmd": "wait", "id": -1}), -1)
            baseline = rss_kib(process.pid)
        peak = max(peak, rss_kib(process.pid)) if i % 100 == 0 else peak
    ask(json.dumps({"cmd": "wait", "id": -2}), -2)
    final = rss_kib(process.pid)
    # Last (its buffer would blur the memory figures): one line past the channel's 64 MiB limit
    # is refused, and the next line is read.
    answer = ask("[" + "1," * (35 << 20) + "1]", None)
    if answer.get("error", {}).get("code") != "resource_exhausted":
        raise SystemExit(f"an overlong line was answered {str(answer)[:200]}")
    ask(json.dumps({"cmd": "state", "id": -4, "max_elements": 0}), -4)
    alive = process.poll() is None
    ask(json.dumps({"cmd": "quit", "id": -3}), -3)
    process.stdin.close()
    status = process.wait(timeout=30)
    stderr = process.stderr.read()
    log = os.path.join(scratch.name, ".cache", "SliceScope", "SliceScope", "automation.log")
    growth = (final - baseline) / baseline if baseline else float("inf")
    print(f"automation soak: {count} commands ({malformed} malformed) in "
          f"{time.monotonic() - started:.1f} s; RSS after warm-up {baseline / 1024:.1f} MiB, "
          f"at the end {final / 1024:.1f} MiB ({growth * 100:+.1f}%), peak sampled "
          f"{peak / 1024:.1f} MiB; exit status {status}")
    if not alive or status != 0:
        raise SystemExit("slicescope did not survive the session")
    if stderr:
        raise SystemExit(f"--automation wrote to stderr: {stderr[:500]}")
    if not os.path.exists(log):
        raise SystemExit(f"no automation log at {log}")
    if growth > 0.10:
        raise SystemExit(f"resident memory grew by {growth * 100:.1f}% (limit 10%)")


if __name__ == "__main__":
    main()
