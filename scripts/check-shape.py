#!/usr/bin/env python3
"""Checks the shape of the Rust sources, so a newcomer's house stays
readable (scripts/test.sh runs it; it reads files, builds nothing):

1. no source file of `crates/*/src` is over 800 lines (test-only files,
   such as a `#[cfg(test)] mod tests;` file, excepted);
2. no function outside the tests is over 100 lines;
3. no `Result<_, String>` (nor `type Err = String`) outside the Python
   bindings (`crates/python`), where strings become Python exceptions:
   errors are typed.

`--report` prints the figures (largest files, longest functions) and
exits 0 whatever they are.

Functions are found by their `fn` line and the closing brace at the same
indentation, as rustfmt lays them out; `#[cfg(test)]` items are skipped.
Exit status 0 if everything holds; 1 with one line per problem.
"""
import pathlib
import re
import sys

MAX_FILE = 800
MAX_FN = 100
ROOT = pathlib.Path(__file__).resolve().parent.parent
FN = re.compile(r"^(\s*)(?:pub(?:\([a-z]+\))? )?(?:const )?(?:async )?(?:unsafe )?fn (\w+)")
STRING_ERROR = re.compile(r"Result<[^;]*,\s*String>|type Err = String")


def test_only(path):
    """Whether `path` is compiled only for tests: its parent declares it
    under `#[cfg(test)]`."""
    name = path.stem
    if name in ("mod", "lib", "main"):
        return False
    parents = [path.parent / "mod.rs", path.parent / "lib.rs",
               path.parent.with_suffix(".rs")]
    for parent in parents:
        if parent.exists() and parent != path:
            text = parent.read_text(encoding="utf-8")
            if re.search(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))? )?mod %s;" % name, text):
                return True
    return False


def functions(lines):
    """(name, first line, length) of every function outside test items."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"\s*#\[cfg\(test\)\]", line):
            # skip the item that follows: to its closing brace
            j = i + 1
            indent = len(lines[j]) - len(lines[j].lstrip()) if j < len(lines) else 0
            if j < len(lines) and lines[j].rstrip().endswith(";"):
                i = j + 1
                continue
            j += 1
            while j < len(lines) and not (
                    lines[j].startswith(" " * indent + "}")
                    and len(lines[j]) - len(lines[j].lstrip()) == indent):
                j += 1
            i = j + 1
            continue
        m = FN.match(line)
        if m and not line.rstrip().endswith(";"):
            indent = len(m.group(1))
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith(";"):
                # a declaration without a body (a trait's)
                i = j + 1
                continue
            k = j + 1
            while k < len(lines) and not (
                    lines[k].startswith(" " * indent + "}")
                    and len(lines[k]) - len(lines[k].lstrip()) == indent):
                k += 1
            out.append((m.group(2), i + 1, k - i + 1))
        i += 1
    return out


def main():
    report = "--report" in sys.argv
    problems, sizes, longest = [], [], []
    for path in sorted(ROOT.glob("crates/*/src/**/*.rs")):
        rel = path.relative_to(ROOT).as_posix()
        if test_only(path):
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        sizes.append((len(lines) - 1, rel))
        if len(lines) - 1 > MAX_FILE:
            problems.append(f"{rel}: {len(lines) - 1} lines (at most {MAX_FILE}): split it by concern")
        for name, first, length in functions(lines):
            longest.append((length, f"{rel}:{first} {name}"))
            if length > MAX_FN:
                problems.append(f"{rel}:{first}: fn {name} is {length} lines (at most {MAX_FN})")
        if not rel.startswith("crates/python/"):
            for n, line in enumerate(lines, 1):
                code = line.split("//")[0]
                if STRING_ERROR.search(code):
                    problems.append(f"{rel}:{n}: a String error: give it a type")
    if report:
        print("largest source files:")
        for n, rel in sorted(sizes, reverse=True)[:5]:
            print(f"  {n:5} {rel}")
        print("longest functions:")
        for n, where in sorted(longest, reverse=True)[:5]:
            print(f"  {n:5} {where}")
        print(f"problems: {len(problems)}")
        for p in problems:
            print("  " + p)
        return 0
    for p in problems:
        print(p)
    if problems:
        print(f"check-shape: {len(problems)} problem(s)")
        return 1
    print(f"check-shape: {len(sizes)} source files within {MAX_FILE} lines, "
          f"functions within {MAX_FN}, errors typed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
