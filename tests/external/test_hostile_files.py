# SPDX-License-Identifier: GPL-3.0-or-later
"""The hostile file set of issue 25 against the built slicescope, through its --automation
channel: devices (read only: /dev/zero, /dev/urandom), FIFOs, symlinks to them, sparse files far
over the size limit, overflowing shapes with a 0 (workspace, transpose, .npy header, set_shape), a
NUL in a path; at start-up an exercise-progress.json, an exercise set and the settings file that
are FIFOs or devices. For each: the window comes up or stays up, the next command is answered, the
message names the file and the reason, and no file on disk changed (a progress or settings file
that does not read is moved aside, as the window then says: that is checked too).

    test_hostile_files.py SLICESCOPE        (QT_QPA_PLATFORM=offscreen needs no display)
"""

import json
import os
import selectors
import stat
import subprocess
import sys
import tempfile
import time

ANSWER_SECONDS = 30  # a refused file is answered at once; a read without end never is


class Failure(AssertionError):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


class Session:
    """One slicescope --automation process with its own home, settings and data folders."""

    def __init__(self, binary, scratch, prepare=None):
        self.config = os.path.join(scratch, "config")
        self.data = os.path.join(scratch, "data")
        self.appdata = os.path.join(self.data, "SliceScope", "SliceScope")
        os.makedirs(os.path.join(self.config, "SliceScope"), exist_ok=True)
        os.makedirs(self.appdata, exist_ok=True)
        if prepare:
            prepare(self)
        env = dict(os.environ, XDG_CONFIG_HOME=self.config, XDG_DATA_HOME=self.data,
                   HOME=scratch, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        self.log = open(os.path.join(scratch, "stderr.txt"), "w")
        self.process = subprocess.Popen([binary, "--automation"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.log, env=env,
                                        text=True, bufsize=1)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)
        self.next_id = 1

    def send(self, command, raw=None):
        ident = self.next_id
        self.next_id += 1
        line = raw if raw is not None else json.dumps(dict(command, id=ident))
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        if not self.selector.select(ANSWER_SECONDS):
            raise Failure(f"no answer within {ANSWER_SECONDS} s to {line[:200]}")
        answer = self.process.stdout.readline()
        if not answer:
            raise Failure(f"slicescope ended (status {self.process.wait()}) before answering "
                          f"{line[:200]}")
        answer = json.loads(answer)
        check(answer.get("id") == ident, f"answer {answer} is not for {line[:200]}")
        return answer

    def state(self):
        answer = self.send({"cmd": "state"})
        check(answer.get("ok"), f"state failed: {answer}")
        return answer

    def close(self):
        try:
            if self.process.poll() is None:
                try:
                    self.send({"cmd": "quit"})
                    self.process.wait(timeout=20)
                except Failure:
                    pass  # hung on an earlier command: killed below, that failure reported
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.log.close()


def snapshot(paths):
    """What is on disk at each path: its kind, size and bytes (only regular files are read)."""
    seen = {}
    for path in paths:
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            seen[path] = None
            continue
        entry = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns)
        if stat.S_ISLNK(info.st_mode):
            entry += (os.readlink(path),)
        seen[path] = entry
    return seen


def npy_header(shape):
    header = "{'descr': '|i1', 'fortran_order': False, 'shape': %s, }" % shape
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()


def opened_files(tmp):
    """(name, make(path), reason in the answer) for automation open_file."""
    def fifo(path):
        os.mkfifo(path)

    def link(target):
        return lambda path: os.symlink(target, path)

    def sparse(size):
        def make(path):
            with open(path, "wb") as f:
                f.truncate(size)
        return make

    def text(body):
        def make(path):
            with open(path, "w") as f:
                f.write(body)
        return make

    def binary(body):
        def make(path):
            with open(path, "wb") as f:
                f.write(body)
        return make

    pipe = os.path.join(tmp, "pipe")
    os.mkfifo(pipe)
    overflow = ('{"op": "getitem", "inputs": {"input": {"dtype": "int8", "shape": '
                '[4294967296, 4294967296, 0], "fill": "zeros"}}, "attrs": {"expr": "x[::-1]"}}')
    transpose = ('{"op": "transpose", "inputs": {"a": {"dtype": "int8", "shape": '
                 '[0, 4294967296, 4294967296], "fill": "zeros"}}, "attrs": {"perm": [2, 1, 0]}}')
    big = "4611686018427387904"
    return [
        ("fifo.json", fifo, "FIFO"),
        ("fifo.npy", fifo, "FIFO"),
        ("zero.json", link("/dev/zero"), "character device"),
        ("urandom.npy", link("/dev/urandom"), "character device"),
        ("pipe-link.json", link(pipe), "FIFO"),
        ("huge.json", sparse(150 << 30), "over the limit of"),
        ("huge.npy", sparse(150 << 30), "not a .npy file"),
        ("overflow.json", text(overflow), "is too big"),
        ("transpose.json", text(transpose), "is too big"),
        ("overflow.npy", binary(npy_header(f"({big}, {big}, 0)")), "is too big"),
        ("overflow-fortran.npy", binary(npy_header(f"(0, {big}, {big})")), "is too big"),
    ]


def run_open_file_cases(binary):
    with tempfile.TemporaryDirectory(prefix="slicescope-hostile-") as scratch:
        tmp = os.path.join(scratch, "files")
        os.makedirs(tmp)
        cases = opened_files(tmp)
        for name, make, _ in cases:
            make(os.path.join(tmp, name))
        paths = [os.path.join(tmp, name) for name in sorted(os.listdir(tmp))]
        before = snapshot(paths)
        session = Session(binary, os.path.join(scratch, "home"))
        try:
            session.send({"cmd": "wait", "timeout_ms": 60000})
            workspace = session.state().get("workspace")
            direct = [("/dev/zero", "character device"), ("/dev/urandom", "character device"),
                      (tmp, "directory")]
            for path, reason in [(os.path.join(tmp, n), r) for n, _, r in cases] + direct:
                started = time.monotonic()
                answer = session.send({"cmd": "open_file", "path": path})
                took = time.monotonic() - started
                message = answer.get("error", {}).get("message", "")
                check(not answer.get("ok"), f"open_file {path} succeeded: {answer}")
                check(os.path.basename(path) in message and reason in message,
                      f"open_file {path}: the message does not name the file and '{reason}': "
                      f"{message}")
                check(took < 10, f"open_file {path} took {took:.1f} s")
                after = session.state()
                check(after.get("workspace") == workspace,
                      f"open_file {path} changed the workspace")
                print(f"ok   open_file {path}: {message[:150]}")
            # A NUL in a path would name another file: refused as such.
            answer = session.send(None, raw=json.dumps(
                {"id": session.next_id, "cmd": "open_file",
                 "path": os.path.join(tmp, "overflow.json") + "\u0000/etc/passwd"}))
            check(answer.get("error", {}).get("code") == "bad_request" and
                  "NUL" in answer["error"]["message"], f"NUL path: {answer}")
            print(f"ok   open_file with a NUL: {answer['error']['message'][:150]}")
            answer = session.send({"cmd": "set_shape",
                                   "shape": [4294967296, 4294967296, 0]})
            check(answer.get("error", {}).get("code") == "bad_request" and
                  "multiply past" in answer["error"]["message"], f"set_shape: {answer}")
            print(f"ok   set_shape [2^32, 2^32, 0]: {answer['error']['message'][:150]}")
            for bad in (-1, "5", 1.5):
                answer = session.send({"cmd": "wait", "timeout_ms": bad})
                check(answer.get("error", {}).get("code") == "bad_request", f"wait {bad}: {answer}")
                session.state()
                print(f"ok   wait timeout_ms={bad!r}: answered, and the next command too")
            check(session.process.poll() is None, "slicescope is gone")
        finally:
            session.close()
        check(snapshot(paths) == before, "a file on disk changed")
        print("ok   no file changed")


def run_start_case(binary, name, prepare, expect_message, kept):
    """Starts slicescope with hostile files in its folders; the window must come up and say so."""
    with tempfile.TemporaryDirectory(prefix="slicescope-hostile-") as scratch:
        home = os.path.join(scratch, "home")
        session = Session(binary, home, prepare)
        try:
            state = session.state()
            message = state.get("message", "")
            for words in expect_message:
                check(words in message, f"{name}: the window's message lacks '{words}': {message}")
            session.send({"cmd": "wait", "timeout_ms": 60000})
            session.state()
            for path, kind in kept(session):
                info = os.lstat(path)
                check(stat.S_IFMT(info.st_mode) == kind,
                      f"{name}: {path} is not kept as it was ({oct(info.st_mode)})")
            print(f"ok   start with {name}: {message[:150]}")
        finally:
            session.close()


def run_start_cases(binary):
    progress = lambda s: os.path.join(s.appdata, "exercise-progress.json")
    settings = lambda s: os.path.join(s.config, "SliceScope", "SliceScope.conf")

    def exercise_set(s):
        os.makedirs(os.path.join(s.appdata, "exercises"), exist_ok=True)
        return os.path.join(s.appdata, "exercises", "mine.json")

    run_start_case(binary, "exercise-progress.json a FIFO", lambda s: os.mkfifo(progress(s)),
                   ["exercise-progress.json", "FIFO", "exercise-progress.json.unreadable-1"],
                   lambda s: [(progress(s) + ".unreadable-1", stat.S_IFIFO)])
    run_start_case(binary, "exercise-progress.json a symlink to /dev/zero",
                   lambda s: os.symlink("/dev/zero", progress(s)),
                   ["exercise-progress.json", "character device"],
                   lambda s: [(progress(s) + ".unreadable-1", stat.S_IFLNK),
                              ("/dev/zero", stat.S_IFCHR)])
    run_start_case(binary, "an exercise set that is a symlink to /dev/zero",
                   lambda s: os.symlink("/dev/zero", exercise_set(s)),
                   ["mine.json", "character device"],
                   lambda s: [(exercise_set(s), stat.S_IFLNK)])
    run_start_case(binary, "an exercise set that is a FIFO",
                   lambda s: os.mkfifo(exercise_set(s)), ["mine.json", "FIFO"],
                   lambda s: [(exercise_set(s), stat.S_IFIFO)])

    def huge_set(s):
        with open(exercise_set(s), "wb") as f:
            f.truncate(100 << 30)
    run_start_case(binary, "a sparse 100 GB exercise set", huge_set,
                   ["mine.json", "over the limit of"],
                   lambda s: [(exercise_set(s), stat.S_IFREG)])
    run_start_case(binary, "the settings file a FIFO", lambda s: os.mkfifo(settings(s)),
                   ["SliceScope.conf", "FIFO", "SliceScope.conf.unreadable-1"],
                   lambda s: [(settings(s) + ".unreadable-1", stat.S_IFIFO)])

    # A list that claims 2^32 - 2^24 entries: Qt 6.4 reserves them all before reading one.
    damaged = b"[General]\nstarted=true\nhistory=@Variant(\\0\\0\\0\\t\\xfe\\xff\\xff\\xff)\n"

    def damaged_settings(s):
        with open(settings(s), "wb") as f:
            f.write(damaged)

    def damaged_kept(s):
        with open(settings(s) + ".unreadable-1", "rb") as f:
            check(f.read() == damaged, "the damaged settings file was not kept as it was")
        return [(settings(s) + ".unreadable-1", stat.S_IFREG)]
    run_start_case(binary, "a settings file with a binary list of 2^32 entries", damaged_settings,
                   ["SliceScope.conf", "@Variant", "SliceScope.conf.unreadable-1"], damaged_kept)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    try:
        run_open_file_cases(binary)
        run_start_cases(binary)
    except Failure as failure:
        print(f"FAIL {failure}")
        sys.exit(1)
    print("all hostile files refused, window up throughout")


if __name__ == "__main__":
    main()
