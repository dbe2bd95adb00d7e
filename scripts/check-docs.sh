#!/usr/bin/env bash
# Checks that the repository's files and documents say what is true:
#
# 1. No git-tracked file points outside the repository: no absolute path to
#    a machine's folders (/work/, /home/, /root/, /Users/, a Windows drive,
#    /tmp/ used as a project path) and no ../shared. The exceptions are
#    listed below, each with its reason.
# 2. README.md's crate table ("## Architecture") names exactly the
#    workspace's members (`cargo metadata`), in an order where every crate
#    depends only on crates above it, with each one's workspace
#    dependencies; its member count is right.
# 3. ARCHITECTURE.md's crate table gives each member's workspace
#    dependencies exactly as `cargo metadata` has them.
# 4. No crate depends on a shell (`cli`, `server`) except the edges
#    ARCHITECTURE.md names (ALLOWED_SHELL_DEPS below).
# 5. README.md's options tables ("## Options") list exactly the options,
#    defaults and values that `ratrace options GAME` prints, for every game.
# 6. Every path to a file or folder of the project that README.md,
#    ARCHITECTURE.md or docs/ name in backquotes exists: written from the
#    repository's root (`crates/server/src/table/`) or from the crates
#    folder (`server/src/lib.rs`), it must be there; written from inside a
#    crate or folder (`src/state/`, `store/sqlite/writer.rs`), some tracked
#    path must end so. Moved code cannot leave the docs pointing at
#    nothing.
# 7. Every `Type::member` they name, where the repository defines `Type`,
#    is a member of it, and a name given beside a path, (`path`, `name`),
#    is in that file.
# 8. Every `--flag` they give a default for, "`--flag N` (default X)", is
#    a `ratrace` flag whose `--help` gives that default.
#
# Usage: bash scripts/check-docs.sh [RATRACE_BIN]
#   the ratrace binary: the argument, else $RATRACE_BIN, else
#   target/debug/ratrace (scripts/test.sh builds it just before).
#   $RATRACE_METADATA: a file holding `cargo metadata --no-deps
#   --format-version 1` output to use instead of running cargo (for tests of
#   this script).
# Exit status 0 if everything holds; 1 with one line per problem, naming the
# file and line, if not.
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-${RATRACE_BIN:-target/debug/ratrace}}"
if [ ! -x "$bin" ]; then
  echo "error: no ratrace binary at $bin (build it: cargo build -p cli)" >&2
  exit 1
fi
if [ -n "${RATRACE_METADATA:-}" ]; then
  metadata=$(cat "$RATRACE_METADATA")
else
  metadata=$(cargo metadata --no-deps --format-version 1)
fi

RATRACE_BIN="$bin" python3 - "$metadata" <<'PY'
import json, os, re, subprocess, sys

problems = []
def problem(where, what):
    problems.append(f"{where}: {what}")

SELF = "scripts/check-docs.sh"

# --- 1. No file points outside the repository ------------------------------

# An absolute path starts at the beginning of a line or after a character
# that cannot be part of a longer path or URL (so `https://host/home/x` and
# `crates/x/tmp/` are not paths to a machine's folder).
START = r"(?:^|(?<=[\s'\"`(\[<=,;:|]))"
FORBIDDEN = [
    (re.compile(START + r"/(?:work|home|root|Users)/"),
     "an absolute path into a machine's folders"),
    # a drive and a folder: C:\Users\ or, in a string literal, C:\\Users\\
    (re.compile(START + r"[A-Z]:\\{1,2}[\w .-]+\\"), "a Windows drive path"),
    (re.compile(r"\.\./shared\b"), "a path to the shared folder outside the repository"),
    (re.compile(START + r"/tmp/"), "a path under /tmp used as a project path"),
]

# /tmp/ is allowed where it names a scratch place that the command creates
# or writes to, never a file the project needs:
#   - on a line that calls mktemp (the template of a fresh temporary folder);
#   - the uses below, each a file and the exact text, with its reason.
# Paths that are not a machine's folders are not matched at all: system
# paths a deployment uses (/usr/bin/chromium, /var/lib/ratrace, /etc/...),
# kernel interfaces (/proc/net/tcp, /dev/null) and URLs.
TMP_ALLOWED = {
    ("docs/server.md", "/tmp/lg.db"):
        "a throwaway database for the load test the section describes",
    ("e2e/helpers.mjs", "E2E_SERVER_LOG=/tmp/server.log"):
        "an example of where a developer may ask for the server's log",
    ("e2e/replay.test.mjs", "REPLAY_SHOT=/tmp/x-"):
        "an example of where a developer may ask for screenshots",
    ("examples/bots/README.md", "dump_fixtures -- /tmp/views"):
        "the output folder of a one-off fixture dump",
}

files = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout
for path in files.decode().split("\0"):
    if not path or path == SELF or not os.path.isfile(path):
        continue
    with open(path, "rb") as f:
        data = f.read()
    if b"\0" in data[:8000]:  # binary, as git decides it
        continue
    for n, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        for rx, what in FORBIDDEN:
            for m in rx.finditer(line):
                if what.startswith("a path under /tmp"):
                    if "mktemp" in line:
                        continue
                    if any(p == path and text in line for (p, text) in TMP_ALLOWED):
                        continue
                found = re.match(r"\S+", line[m.start():]).group(0)
                problem(f"{path}:{n}", f"{what}: `{found}`")

# --- the workspace, from cargo metadata -------------------------------------

meta = json.loads(sys.argv[1])
members = set(meta["workspace_members"])
packages = {p["name"]: p for p in meta["packages"] if p["id"] in members}
names = set(packages)
deps = {}      # name -> set of normal (and build) workspace dependencies
dev_deps = {}  # name -> set of workspace dev-dependencies (not also normal)
for name, p in packages.items():
    normal = {d["name"] for d in p["dependencies"] if d["name"] in names and d["kind"] != "dev"}
    dev = {d["name"] for d in p["dependencies"] if d["name"] in names and d["kind"] == "dev"}
    deps[name], dev_deps[name] = normal, dev - normal

def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()

def section(lines, heading):
    """(first line number, lines) of the section under `heading`, up to the
    next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    for i, l in enumerate(lines):
        if l.strip() == heading:
            end = len(lines)
            for j in range(i + 1, len(lines)):
                h = re.match(r"(#+) ", lines[j])
                if h and len(h.group(1)) <= level:
                    end = j
                    break
            return i + 1, lines[i:end]
    return None, []

def table_rows(lines, first):
    """The rows of the first Markdown table in `lines` whose header's first
    cell is `first`: (line number offset, cells)."""
    rows, inside = [], False
    for i, l in enumerate(lines):
        if l.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", l.strip())[1:-1]]
            if not inside:
                if cells and cells[0] == first:
                    inside = True
                continue
            if set(l.replace("|", "").strip()) <= set("-: "):
                continue
            rows.append((i, cells))
        elif inside:
            break
    return rows

def ticked(cell):
    return re.findall(r"`([^`]+)`", cell)

def dep_cell(cell):
    """'`a`, `b`; tests: `c`' -> ({a, b}, {c}); 'none' -> (set(), set())."""
    normal, _, dev = cell.partition("tests:")
    return set(ticked(normal)), set(ticked(dev))

def check_crate_table(doc, heading, first, dep_col, ordered):
    start, lines = section(read(doc), heading)
    if start is None:
        problem(doc, f"no section `{heading}`")
        return
    rows = table_rows(lines, first)
    if not rows:
        problem(f"{doc}:{start}", f"no crate table (a table whose first column is `{first}`)")
        return
    seen = {}
    for i, cells in rows:
        where = f"{doc}:{start + i}"
        named = [t for t in ticked(cells[0]) if t in names]
        if not named:
            problem(where, f"`{cells[0]}` is not a workspace member (cargo metadata: {', '.join(sorted(names))})")
            continue
        normal, dev = dep_cell(cells[dep_col]) if dep_col is not None and dep_col < len(cells) else (set(), set())
        for name in named:
            if name in seen:
                problem(where, f"`{name}` is listed twice")
            seen[name] = (where, len(seen))
            if dep_col is None:
                continue
            if normal != deps[name]:
                problem(where, f"`{name}` depends on {sorted(deps[name]) or 'none'}, the table says {sorted(normal) or 'none'}")
            if dev != dev_deps[name]:
                problem(where, f"`{name}`'s tests also use {sorted(dev_deps[name]) or 'nothing more'}, the table says {sorted(dev) or 'nothing more'}")
    for name in sorted(names - set(seen)):
        problem(f"{doc}:{start}", f"the crate table lacks the workspace member `{name}`")
    if ordered:
        for name, (where, pos) in seen.items():
            for d in sorted(deps[name] | dev_deps[name]):
                if d in seen and seen[d][1] > pos:
                    problem(where, f"`{name}` depends on `{d}`, which is listed below it")
    return start, lines

# --- 2. README's crate list ---------------------------------------------------

NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty".split())}
r = check_crate_table("README.md", "## Architecture", "crate", 2, ordered=True)
if r:
    start, lines = r
    counts = [(i, m) for i, l in enumerate(lines)
              for m in re.finditer(r"\b(\w+) workspace (?:crates|members|packages)\b", l)]
    if not counts:
        problem(f"README.md:{start}", "no sentence giving the number of workspace members (\"N workspace members\")")
    for i, m in counts:
        w = m.group(1).lower()
        n = int(w) if w.isdigit() else NUMBERS.get(w)
        if n != len(names):
            problem(f"README.md:{start + i}", f"says \"{m.group(0)}\", cargo metadata has {len(names)} members")

# --- 3. ARCHITECTURE's crate graph and table --------------------------------

# The section's crate table names every member; its ```mermaid graph has
# exactly cargo metadata's edges: `a --> b` a dependency, `a -. tests .-> b`
# a dev-dependency; a node `id["name"]` gives a member a mermaid-safe id.
r = check_crate_table("ARCHITECTURE.md", "## Crates and what each may depend on", "crate", None, ordered=False)
if r:
    start, lines = r
    try:
        a = lines.index("```mermaid")
        b = lines.index("```", a + 1)
    except ValueError:
        problem(f"ARCHITECTURE.md:{start}", "no ```mermaid crate graph")
        a = b = 0
    ids, drawn = {}, {}
    for i in range(a + 1, b):
        l = lines[i].strip()
        if not l or l.startswith("%%") or l.startswith("flowchart"):
            continue
        node = re.fullmatch(r'(\w+)\["?([\w-]+)"?\]', l)
        edge = re.fullmatch(r"(\w+)\s*(-->|-\.\s*tests\s*\.->)\s*(\w+)", l)
        if node:
            ids[node.group(1)] = node.group(2)
        elif edge:
            kind = "normal" if edge.group(2) == "-->" else "dev"
            drawn[(edge.group(1), edge.group(3), kind)] = start + i
        else:
            problem(f"ARCHITECTURE.md:{start + i}", f"cannot read the graph line `{l}`")
    have = {}
    for (x, y, kind), n in drawn.items():
        x, y = ids.get(x, x), ids.get(y, y)
        for c in (x, y):
            if c not in names:
                problem(f"ARCHITECTURE.md:{n}", f"`{c}` is not a workspace member")
        have[(x, y, kind)] = n
    want = {(x, y, "normal") for x in names for y in deps[x]} | {(x, y, "dev") for x in names for y in dev_deps[x]}
    for (x, y, kind) in sorted(set(have) - want):
        problem(f"ARCHITECTURE.md:{have[(x, y, kind)]}",
                f"the graph draws `{x}` -> `{y}` ({kind}), cargo metadata has no such edge")
    for (x, y, kind) in sorted(want - set(have)):
        problem(f"ARCHITECTURE.md:{start}",
                f"the graph lacks `{x}` -> `{y}` ({'a dependency' if kind == 'normal' else 'tests only'}), which cargo metadata has")

# --- 4. Nothing depends on a shell but what ARCHITECTURE.md names -----------

# ARCHITECTURE.md, "Crates and what each may depend on": nothing depends on
# a shell (`cli`, `server`) except these edges.
ALLOWED_SHELL_DEPS = {
    ("cli", "server"): "`ratrace serve`: the CLI starts the server",
    ("fuzzing", "server"): "the fuzz targets check the server's own parsers of "
                           "outside input (WebSocket messages, lobby requests)",
}
for name in sorted(names):
    for d in sorted((deps[name] | dev_deps[name]) & {"cli", "server"}):
        if (name, d) not in ALLOWED_SHELL_DEPS:
            problem(packages[name]["manifest_path"].replace(meta["workspace_root"] + "/", ""),
                    f"`{name}` depends on the shell `{d}` (ARCHITECTURE.md: nothing depends on a shell "
                    "except the edges it names)")

# --- 5. README's options tables -----------------------------------------------

ratrace = os.environ["RATRACE_BIN"]
out = subprocess.run([ratrace, "options", "not-a-game"], capture_output=True, text=True)
m = re.search(r"choose from: ([\w, ]+)", out.stderr + out.stdout)
if not m:
    problem(ratrace, f"cannot learn the games from `ratrace options` (it said: {out.stderr.strip()!r})")
    games = []
else:
    games = [g.strip() for g in m.group(1).split(",") if g.strip()]

start, lines = section(read("README.md"), "## Options")
if start is None:
    problem("README.md", "no section `## Options`")
    lines = []
for game in games:
    printed = subprocess.run([ratrace, "options", game], capture_output=True, text=True, check=True).stdout
    want = {}
    for l in printed.splitlines():
        o = re.match(r"\s+(\S+)\s+default (\S+)\s+values (\S+)", l)
        if o:
            want[o.group(1)] = (o.group(2), o.group(3))
    # the game's table: the first table after a `###` heading naming `game`
    h = next((i for i, l in enumerate(lines) if l.startswith("### ") and f"`{game}`" in l), None)
    if h is None:
        problem(f"README.md:{start}", f"no options table for `{game}` (a `### ...` heading naming `{game}`)")
        continue
    sub = lines[h:]
    nxt = next((i for i, l in enumerate(sub[1:], 1) if l.startswith("#")), len(sub))
    rows = table_rows(sub[:nxt], "option")
    have = {}
    for i, cells in rows:
        where = f"README.md:{start + h + i}"
        key = ticked(cells[0])[0] if ticked(cells[0]) else cells[0]
        default = ticked(cells[1])[0] if len(cells) > 1 and ticked(cells[1]) else ""
        values = ticked(cells[2])[0].replace("\\|", "|") if len(cells) > 2 and ticked(cells[2]) else ""
        have[key] = where
        if key not in want:
            problem(where, f"`{key}` is not a {game} option (`ratrace options {game}`)")
        elif (default, values) != want[key]:
            problem(where, f"`{key}`: the table says default `{default}` values `{values}`, "
                           f"`ratrace options {game}` prints default `{want[key][0]}` values `{want[key][1]}`")
    for key in want:
        if key not in have:
            problem(f"README.md:{start + h}", f"the {game} options table lacks `{key}` (`ratrace options {game}` prints it)")


# --- 6. Paths the documents name exist -------------------------------------

ROOTS = ("crates/", "scripts/", "docs/", "e2e/", "examples/", "scenarios/", "fuzz/", ".ci/")
crate_dirs = sorted(d.name for d in __import__("pathlib").Path("crates").iterdir() if d.is_dir())
DOC_PATH = re.compile(r"`([A-Za-z0-9_./-]+)`")
tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True,
                         check=True).stdout.split()
# paths in other projects that the docs name on purpose
OTHER_PROJECTS = {
    "open_spiel/python/games/kuhn_poker.py": "OpenSpiel's own example game",
}
docs = ["README.md", "ARCHITECTURE.md"] + sorted(
    str(p) for p in __import__("pathlib").Path("docs").rglob("*.md"))
for doc in docs:
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        for m in DOC_PATH.finditer(line):
            path = m.group(1).rstrip(".,:")
            if "/" not in path or path.startswith(("/", "./", "../")) or "..." in path:
                continue
            # a placeholder (`crates/NAME`, `scenarios/GAME/`) names no file
            if re.search(r"(?<![A-Za-z])(?:NAME|GAME|FILE|DIR|ID|LANG|NN?)(?![a-z])", path):
                continue
            if path in OTHER_PROJECTS:
                continue
            if path.startswith(ROOTS) or (
                    path.split("/")[0] in crate_dirs and "/src/" in path + "/"):
                # from the repository's root, or from crates/
                found = os.path.exists(path) or os.path.exists("crates/" + path)
            elif re.search(r"\.(rs|js|mjs|py|md|toml|sh)$|/$", path) and "//" not in path:
                # written from inside a crate or folder (`src/table/`,
                # `tests/it/x.rs`, `web/table.js`, `store/sqlite/`): some
                # tracked file's path ends so
                tail = "/" + path.rstrip("/")
                found = os.path.exists(path) or any(
                    ("/" + f).endswith(tail) or ("/" + f + "/").find(tail + "/") >= 0
                    for f in tracked)
            else:
                continue
            if not found:
                problem(f"{doc}:{n}", f"names `{path}`, which does not exist")

# --- 7. Names of code the documents give exist -----------------------------
#
# `Type::member` where the repository defines `Type` (a struct, enum, trait
# or type): `member` must be a word of a file that defines `Type` or has an
# `impl` of it (a method, a variant, a constant, a field). And a name given
# beside a path, (`path`, `name`): `name` must be a word of that file.

rust_files = [f for f in tracked if f.endswith(".rs")]
rust_text = {f: open(f, encoding="utf-8").read() for f in rust_files}
defines = {}
for f, text in rust_text.items():
    for m in re.finditer(r"\b(?:struct|enum|trait|type)\s+([A-Z][A-Za-z0-9]*)", text):
        defines.setdefault(m.group(1), set()).add(f)
def homes(name):
    """The files that define `name` or implement something on it."""
    out = set(defines.get(name, ()))
    imp = re.compile(r"\bimpl\b[^{;]*?\b" + name + r"\b[^{;]*\{")
    for f, text in rust_text.items():
        if f not in out and name in text and imp.search(text):
            out.add(f)
    return out
home_cache = {}
in_fence = False
MEMBER = re.compile(r"`(?:[a-z_][a-z0-9_]*::)*([A-Z][A-Za-z0-9]*)::([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?`")
BESIDE = re.compile(r"\(`([A-Za-z0-9_./-]+\.rs)`, `([a-z_][a-z0-9_]*)`")
for doc in docs:
    in_fence = False
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for m in MEMBER.finditer(line):
            ty, member = m.group(1), m.group(2)
            if ty not in defines:
                continue
            if ty not in home_cache:
                home_cache[ty] = homes(ty)
            word = re.compile(r"\b" + member + r"\b")
            if not any(word.search(rust_text[f]) for f in home_cache[ty]):
                problem(f"{doc}:{n}", f"names `{ty}::{member}`, which `{ty}` does not have")
        for m in BESIDE.finditer(line):
            path, name = m.group(1), m.group(2)
            files = [f for f in rust_files if ("/" + f).endswith("/" + path)]
            if files and not any(re.search(r"\b" + name + r"\b", rust_text[f]) for f in files):
                problem(f"{doc}:{n}", f"names `{name}` in `{path}`, which has no such name")

# --- 8. Flags and defaults the documents give are the CLI's ------------------
#
# A `--flag` given with a default in prose, "`--flag N` (default X)", must
# be a flag of some `ratrace` command whose help gives that default (a
# number with a unit is read in the flag's own unit: `10 s` for an -ms
# flag is 10000, `4 MiB` for a -bytes flag 4194304).

help_of = {}
top = subprocess.run([ratrace, "--help"], capture_output=True, text=True)
commands = re.findall(r"^  ([a-z][a-z-]*)  ", top.stdout, re.M)
for c in commands:
    help_of[c] = subprocess.run([ratrace, c, "--help"], capture_output=True, text=True).stdout
flag_defaults = {}
for c, text in help_of.items():
    blocks = re.split(r"\n(?=\s+(?:-[a-zA-Z], )?--[a-z0-9-]+)", text)
    for b in blocks:
        fm = re.match(r"\s+(?:-[a-zA-Z], )?(--[a-z0-9-]+)", b)
        if not fm:
            continue
        d = re.search(r"\[default: ([^\]]+)\]", b)
        flag_defaults.setdefault(fm.group(1), []).append((c, d.group(1) if d else None, b))
UNITS = {("s", "-ms"): 1000, ("MiB", "-bytes"): 1 << 20, ("KiB", "-bytes"): 1 << 10}
CLAIM = re.compile(r"`(--[a-z0-9-]+)(?: [A-Z_]+)?` \(default `?([^`),;]+)`?")
for doc in docs:
    in_fence = False
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for m in CLAIM.finditer(line):
            flag, said = m.group(1), m.group(2).strip()
            if flag not in flag_defaults:
                problem(f"{doc}:{n}", f"gives a default for `{flag}`, which no `ratrace` command takes")
                continue
            vm = re.match(r"^([\d,_]+)\s*([A-Za-z]+)?$", said)
            wanted = {said}
            if vm:
                number = int(vm.group(1).replace(",", "").replace("_", ""))
                wanted = {str(number)}
                for (unit, suffix), k in UNITS.items():
                    if vm.group(2) == unit and flag.endswith(suffix):
                        wanted = {str(number * k)}
            ok = any(d in wanted or (d is None and any(
                         re.search(r"\(default:? " + re.escape(w) + r"\b", b) for w in wanted))
                     for _, d, b in flag_defaults[flag])
            if not ok:
                have = ", ".join(f"{c}: {d}" for c, d, _ in flag_defaults[flag])
                problem(f"{doc}:{n}", f"says `{flag}` defaults to {said}, `ratrace` says {have}")

for p in problems:
    print(p)
if problems:
    print(f"check-docs: {len(problems)} problem(s)", file=sys.stderr)
    sys.exit(1)
print("check-docs: no file points outside the repository; README and ARCHITECTURE agree with cargo metadata and `ratrace options`; the paths, code names and flag defaults the documents give exist")
PY
