#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks on the project's documents.

- They stand alone: no file of the source tree (code, docs, man pages) points to a
  specification file that is not in the project. The protocol is described by
  engine/protocol/README.md.
- With `--cli PATH`, the op lists kept in prose agree with the registry: every op that
  `slicescope-cli ops` lists (with its aliases) is a row of the op table in
  engine/protocol/README.md, every row is an op, and README.md names every op of the family.
- With `--app PATH`, README.md's synopsis of `slicescope` offers exactly the options of
  `slicescope --help`, and ui/README.md's table of automation commands lists exactly the
  commands `slicescope --automation` takes.
- The counts README.md gives of the built-in exercises and lesson groups are those of resources/.
- The source files the documents name exist, and each class of ui/README.md's table of the
  window's classes is declared in workbench/ under its name.
- No command a document shows runs under `chrt`: measurements are taken as users run, without
  real-time priority."""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

# Written in two parts so that this file does not name what it looks for.
FORBIDDEN = ["protocol" + ".md", "semantics" + ".md", "shared/" + "spec"]
SKIP_DIRS = {".git", "__pycache__", "node_modules"}


def read(top, path):
    with open(os.path.join(top, path), encoding="utf-8") as f:
        return f.read()


def table_rows(text, header):
    """The rows of the table whose header row starts with `header`, or None if there is none."""
    return text.split(header, 1)[1].split("\n\n")[0] if header in text else None


def citations(top):
    found = []
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue  # binary files (images, test data)
            for n, line in enumerate(text.splitlines(), 1):
                for word in FORBIDDEN:
                    if word in line:
                        found.append(f"{os.path.relpath(path, top)}:{n}: cites {word}")
    return found


def registry_ops(cli):
    """{name: [aliases]} from `slicescope-cli ops`: lines such as `stack [pack](values[]) -> output`."""
    listing = subprocess.run([cli, "ops"], check=True, capture_output=True, text=True).stdout
    ops = {}
    for line in listing.splitlines():
        m = re.match(r"^([a-z_0-9]+)(?: \[([a-z_0-9, ]+)\])?\(", line)
        if m:
            ops[m.group(1)] = [a.strip() for a in (m.group(2) or "").split(",") if a.strip()]
    return ops


def table_ops(readme):
    """{name: [aliases]} from the first column of the op table: `` `stack` [`pack`] ``."""
    rows = {}
    in_table = False
    for line in readme.splitlines():
        if line.startswith("| op |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        if in_table and not line.startswith("| ---"):
            names = re.findall(r"`([a-z_0-9]+)`", line.split("|")[1])
            rows[names[0]] = names[1:]
    return rows


def op_lists(top, cli):
    problems = []
    ops = registry_ops(cli)
    if len(ops) < 30:
        problems.append(f"`{cli} ops` listed only {len(ops)} ops")
    table = table_ops(read(top, "engine/protocol/README.md"))
    for name, aliases in ops.items():
        if name not in table:
            problems.append(f"engine/protocol/README.md: the op table has no row for {name}")
        elif sorted(table[name]) != sorted(aliases):
            problems.append(f"engine/protocol/README.md: {name}'s aliases are {table[name]}, "
                            f"the registry's {aliases}")
    for name in table:
        if name not in ops:
            problems.append(f"engine/protocol/README.md: the op table lists {name}, "
                            "which the registry does not have")
    readme = read(top, "README.md")
    for name in ops:
        if not re.search(r"\b" + name + r"\b", readme):
            problems.append(f"README.md does not name the op {name}")
    return problems


LONG_OPTION = r"--[a-z][a-z0-9-]*"


def app_synopsis(top, app):
    """README.md's `slicescope [...]` synopsis against the options `slicescope --help` lists."""
    synopsis = re.search(r"^`slicescope \[(.*?)`$", read(top, "README.md"), re.M | re.S)
    if not synopsis:
        return ["README.md has no `slicescope [...]` synopsis"]
    written = set(re.findall(LONG_OPTION, synopsis.group(1)))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}  # --help needs no display
    helped = subprocess.run([app, "--help"], check=True, capture_output=True, text=True, env=env)
    offered = set(re.findall(LONG_OPTION, helped.stdout)) - {"--help", "--help-all", "--version"}
    return ([f"README.md's synopsis of slicescope lacks {o}" for o in sorted(offered - written)] +
            [f"README.md's synopsis of slicescope offers {o}, which `slicescope --help` does not"
             for o in sorted(written - offered)])


def automation_commands(top, app):
    """ui/README.md's `cmd` table against the commands the automation channel names when it is
    given one it does not have."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    answer = subprocess.run([app, "--automation"], input='{"id": 1, "cmd": "no_such"}\n',
                            check=True, capture_output=True, text=True, env=env, timeout=50)
    named = re.search(r"the commands are ([a-z_, ]+)", answer.stdout)
    if not named:
        return [f"slicescope --automation named no commands: {answer.stdout.strip()}"]
    taken = set(named.group(1).split(", "))
    commands = table_rows(read(top, "ui/README.md"), "| `cmd` | fields |")
    if commands is None:
        return ["ui/README.md has no table of automation commands (| `cmd` | fields | ...)"]
    listed = {name for row in re.findall(r"^\| ([^|]+)\|", commands, re.M)
              for name in re.findall(r"`(\w+)`", row)}
    return ([f"ui/README.md's automation commands lack {c}" for c in sorted(taken - listed)] +
            [f"ui/README.md lists the automation command {c}, which the app does not take"
             for c in sorted(listed - taken)])


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve"]


def number(text):
    return int(text) if text.isdigit() else NUMBER_WORDS.index(text.lower())


def resource_counts(top):
    """The exercises and sets, and the lessons of each group, that README.md counts."""
    readme = " ".join(read(top, "README.md").split())
    problems = []
    sets = sorted(glob.glob(os.path.join(top, "resources/exercises/*.json")))
    exercises = 0
    for path in sets:
        exercises += len(json.loads(read(top, path))["exercises"])
    claim = re.search(r"(\w+) exercises in (\w+) graded sets", readme)
    if not claim:
        problems.append("README.md does not say how many exercises and sets there are")
    elif (number(claim.group(1)), number(claim.group(2))) != (exercises, len(sets)):
        problems.append(f"README.md: \"{claim.group(0)}\", resources/exercises has {exercises} "
                        f"exercises in {len(sets)} sets")
    groups = {}
    for path in glob.glob(os.path.join(top, "resources/lessons/*.json")):
        group = json.loads(read(top, path))["id"].get("group")
        groups[group] = groups.get(group, 0) + 1
    group_claim = r'lesson group "([^"]+)" (?:\w+ )?(\w+) (?:public|confusions)'
    for claim in re.finditer(group_claim, readme):
        if groups.get(claim.group(1), 0) != number(claim.group(2)):
            problems.append(f"README.md: the lesson group \"{claim.group(1)}\" has "
                            f"{groups.get(claim.group(1), 0)} lessons, not {claim.group(2)}")
    return problems


DOCUMENTS = ["README.md", "CONTRIBUTING.md", "ui/README.md", "engine/protocol/README.md",
             "engine/model/README.md", "resources/README.md", "packaging/README.md",
             "tests/*/README.md", "packaging/man/*.1.in"]
SOURCE_PATH = re.compile(r"(?<![\w./<-])((?:[\w.-]+/)+[\w.-]+\.(?:h|cpp|py|sh|md|json|mjs|js))\b")


def documents(top):
    """{path relative to top: text} of the project's documents."""
    paths = {p for pattern in DOCUMENTS for p in glob.glob(os.path.join(top, pattern))}
    return {os.path.relpath(p, top): read(top, p) for p in sorted(paths)}


def named_files(top, docs):
    """Paths such as `workbench/mainwindow.h` that a document names, read from its own folder,
    the top or a layer's folder (ui, engine, tests); patterns such as `NN-set.json` are skipped."""
    problems = []
    for doc, text in docs.items():
        folders = [os.path.join(top, d)
                   for d in (os.path.dirname(doc), "", "ui", "engine", "tests")]
        for path in sorted(set(SOURCE_PATH.findall(text))):
            if "NN" not in path and not any(os.path.exists(os.path.join(d, path)) for d in folders):
                problems.append(f"{doc} names {path}, which does not exist")
    return problems


def commands_without_chrt(docs):
    """The commands a document shows (its ``` blocks) run as users run them, without chrt."""
    blocks = [(doc, block) for doc, text in docs.items()
              for block in re.findall(r"^```.*?^```", text, re.M | re.S)]
    return [f"{doc}: a command runs under chrt" for doc, block in blocks
            if re.search(r"\bchrt\b", block)]


def window_classes(top):
    """Each class of ui/README.md's table of the window's classes is in workbench/ by its name."""
    classes = table_rows(read(top, "ui/README.md"), "| class | its job |")
    if classes is None:
        return ["ui/README.md has no table of the window's classes (| class | its job |)"]
    problems = []
    for name in re.findall(r"^\| `(\w+)` \|", classes, re.M):
        header = f"ui/workbench/{name.lower()}.h"
        declared = os.path.exists(os.path.join(top, header)) and re.search(
            rf"^class {name}\b", read(top, header), re.M)
        if not declared:
            problems.append(f"ui/README.md: {name} is not declared in {header}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("top", nargs="?", default=".")
    parser.add_argument("--cli", help="slicescope-cli, to check the op lists against")
    parser.add_argument("--app", help="slicescope, to check README.md's synopsis against")
    args = parser.parse_args()
    found = citations(args.top)
    for line in found:
        print(line)
    print(f"{len(found)} citations of documents outside the project")
    if args.cli:
        problems = op_lists(args.top, args.cli)
        for line in problems:
            print(line)
        print(f"{len(problems)} disagreements between the op lists and the registry")
        found += problems
    docs = documents(args.top)
    problems = resource_counts(args.top) + named_files(args.top, docs) + commands_without_chrt(docs)
    problems += window_classes(args.top)
    if args.app:
        problems += app_synopsis(args.top, args.app) + automation_commands(args.top, args.app)
    for line in problems:
        print(line)
    print(f"{len(problems)} disagreements between the documents and the app, files, resources")
    found += problems
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
