#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""File names match their classes, in ui/ and app/.

- A header that declares a class (`class Name` with a body, at namespace scope) is named after
  one of them in lower case: `ui/workbench/mainwindow.h` declares `class MainWindow`. Other
  classes may sit beside it (a model beside its view), but the file is found by its class.
- A header that declares no class holds free functions and the plain structs they take and
  return; it is named after what they do (`ui/model/attrtext.h`), and is not checked here.
- A source file that defines members of classes (`QString ViewState::faceLabel(...)`) is named
  after one of them: `ui/views/viewstate.cpp`. This holds for structs with member functions too.
- Every source file of ui/ has a header of its own name, which declares what it defines: a
  class's code is not hidden behind another class's header."""
import os
import re
import sys

FOLDERS = ["ui", "app"]
# `class Name`, `class Name final : public Base`, `class Name {`: a declaration with a body, at
# the start of a line (namespace scope); `class Name;` forward-declares and is skipped.
CLASS = re.compile(r"^class (\w+)(?:\s+final)?\s*(?::[^;]*)?(?:\{.*)?$", re.M)
# A member defined outside its class, on a line of its own at namespace scope:
# `QString ViewState::faceLabel(`, `ViewState::ViewState(`, `Name::~Name(`.
MEMBER = re.compile(r"^(?![ \t/#]).*?\b([A-Z]\w*)::~?[A-Za-z_]\w*\(", re.M)


def files(top, folder, ext):
    for root, dirs, names in os.walk(os.path.join(top, folder)):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(ext):
                yield os.path.join(root, name)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# What each kind of file says of classes: (extension, the pattern of a class it names, the verb).
KINDS = [(".h", CLASS, "declares"), (".cpp", MEMBER, "defines members of")]


def mismatches(top):
    problems = []
    for ext, pattern, verb in KINDS:
        for folder in FOLDERS:
            for path in files(top, folder, ext):
                stem = os.path.basename(path)[:-len(ext)]
                classes = list(dict.fromkeys(pattern.findall(read(path))))
                if classes and stem not in {c.lower() for c in classes}:
                    problems.append(f"{os.path.relpath(path, top)} {verb} {', '.join(classes)}, "
                                    f"none of them {stem}: name the file after its class")
    for path in files(top, "ui", ".cpp"):
        if not os.path.exists(path[:-4] + ".h"):
            problems.append(f"{os.path.relpath(path, top)} has no header of its own name "
                            f"({os.path.basename(path)[:-4]}.h)")
    return problems


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = mismatches(top)
    for line in problems:
        print(line)
    print(f"{len(problems)} files not named after their classes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
