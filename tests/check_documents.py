#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks on the project's documents.

- They stand alone: no file of the source tree (code, docs, man pages) points to a
  specification file that is not in the project. The protocol is described by
  engine/protocol/README.md.
- With `--cli PATH`, the op lists kept in prose agree with the registry: every op that
  `slicescope-cli ops` lists (with its aliases) is a row of the op table in
  engine/protocol/README.md, every row is an op, and README.md names every op of the family."""
import argparse
import os
import re
import subprocess
import sys

# Written in two parts so that this file does not name what it looks for.
FORBIDDEN = ["protocol" + ".md", "semantics" + ".md", "shared/" + "spec"]
SKIP_DIRS = {".git", "__pycache__", "node_modules"}


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
    with open(os.path.join(top, "engine/protocol/README.md"), encoding="utf-8") as f:
        table = table_ops(f.read())
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
    with open(os.path.join(top, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for name in ops:
        if not re.search(r"\b" + name + r"\b", readme):
            problems.append(f"README.md does not name the op {name}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("top", nargs="?", default=".")
    parser.add_argument("--cli", help="slicescope-cli, to check the op lists against")
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
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
