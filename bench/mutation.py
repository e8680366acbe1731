"""Mutation testing of the rules engine: how many small wrong engines the rules tests catch.

mutmut (3.x, the `mutation` extra) makes one mutant per small change inside each function
of `controller/rules/` (a comparison flipped, `and`/`or` swapped, a constant moved by one,
a `not` dropped, ...) and runs, for each mutant, only the tests of `tests/rules` that call
the changed function, stopping at the first failure. A mutant that no test fails on
survives: either a verdict no test pins down, dead code, or a change no test can see.

The run happens in a snapshot of the tree, copied to a scratch folder: other people edit
`controller/rules/` live, and mutmut rewrites the files it mutates, so it never touches
the working tree. Only tests that CI runs are used: the scenario tests of tests/rules,
and with --property-tests the property tests too, so a killed mutant is one CI would
catch. Hypothesis runs with a fixed seed so two runs of the same tree agree. The process lowers its own priority (nice 10) and uses two workers at most.

Survivors that no test can tell from the real engine are listed, one reasoned line each,
in `bench/equivalent_mutants.txt`; they are reported as `equivalent=` and are not counted
as survivors. The last line is the summary:

    mutation killed=K survived=S equivalent=E score=K/(K+S)

    .venv/bin/python bench/mutation.py [--sample N] [--seed S] [--only GLOB] [--workers W]

`--sample N` runs N mutants drawn at random (seeded) instead of all of them; `--only`
limits the run to mutants whose function matches a glob such as `trick.*` or
`playing.Play*`. Every survivor is printed as a diff before the summary, with the line to
paste into the equivalent list if it really is equivalent. See docs/mutation.md.
"""

from __future__ import annotations

import argparse
import fnmatch
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT_LIST = ROOT / "bench" / "equivalent_mutants.txt"
PACKAGE = "controller"
MUTATED = "controller/rules"
TESTS = "tests/rules"
#: which files of MUTATED are mutated (globs in that folder)
MUTATED_FILES: tuple[str, ...] = ("*.py",)
MAX_WORKERS = 2
SNAPSHOT_NOTE = "snapshot.txt"
FALLBACK_NOTE = "unattributed.json"
# The property tests (random whole matches) take most of the suite's time: a minute per
# surviving mutant on a busy machine. The run uses the scenario tests (the rest of
# tests/rules); --property-tests also runs every survivor against the property tests.
# Either way a mutant counts as killed only by a test CI runs; without them the score
# is a lower bound.
SLOW_TESTS = "tests/rules/test_properties.py"
SCENARIO_TESTS = TESTS  # run with --ignore=SLOW_TESTS
SELECTION: tuple[str, ...] = (TESTS, "--ignore=" + SLOW_TESTS)
#: modules the selected tests import (copied with them)
TEST_HELPERS: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """What one run mutates and which tests judge it."""

    mutated: str
    files: tuple[str, ...]
    tests: str
    slow_tests: str
    equivalents: str
    #: the test files mutmut runs, when not all of ``tests`` (copied with ``helpers``)
    selection: tuple[str, ...] = ()
    helpers: tuple[str, ...] = ()


PARTS = {
    # the rules engine, judged by the rules tests
    "rules": Part("controller/rules", ("*.py",), "tests/rules", "tests/rules/test_properties.py",
                  "equivalent_mutants.txt"),
    # the referee's table-action <-> engine-input mapping and the audience of its events
    # (where a mistake mis-seats a play or shows a card), judged by the referee's tests
    # that run in-process (the others start a service, read docs/ or kill a process)
    "referee": Part("controller/referee", ("actions.py", "notices.py", "table_events.py"), "tests/service",
                    "tests/service/test_kill.py", "equivalent_mutants_referee.txt",
                    tuple(f"tests/service/test_{t}.py" for t in (
                        "table_events", "messages", "referee", "verdicts_referee", "mixed_readers",
                        "short_deal", "move_timer", "match_clock", "pinned_referee",
                        "zones_in_use")),
                    ("tests/service/tablekit.py",)),
}


def use_part(name: str) -> None:
    """Point this run at one part. (mutmut's own process needs no part: it reads the
    snapshot's config, written from these.)"""
    global MUTATED, MUTATED_FILES, TESTS, SLOW_TESTS, SCENARIO_TESTS, EQUIVALENT_LIST, SELECTION, TEST_HELPERS
    part = PARTS[name]
    MUTATED, MUTATED_FILES, TESTS, SLOW_TESTS = part.mutated, part.files, part.tests, part.slow_tests
    SCENARIO_TESTS = TESTS
    SELECTION = part.selection or (TESTS, "--ignore=" + SLOW_TESTS)
    TEST_HELPERS = part.helpers
    EQUIVALENT_LIST = ROOT / "bench" / part.equivalents
# A pytest plugin for the snapshot only: the property tests (random whole matches, the
# slow ones) run after the scenario tests, so a mutant a scenario catches costs little.
# It changes the order of the tests, never which tests run.
ORDER_PLUGIN = "courtpiece_mutation_order"
ORDER_PLUGIN_CODE = """\
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: "test_properties" in item.nodeid)
"""
AS_MUTMUT = "--as-mutmut"  # internal: this file run as mutmut's command line
HYPOTHESIS_SEED = "0"
# mutmut exit codes (its stats.status_by_exit_code): 1 and 3 are failing tests, 0 a
# passing run; a timeout means the mutant loops forever, which a test run would notice.
KILLED_CODES = {1, 3, -24, 24, 152, 255, 36}
SURVIVED_CODES = {0}
# 'no tests': no rules test even calls the function, so nothing would catch a change there.
NO_TEST_CODES = {5, 33}
MUTANT_SUFFIX = re.compile(r"__mutmut_\d+$")
ENTRY = re.compile(r"^(?P<function>\S+): `(?P<original>.*)` -> `(?P<mutant>.*)` +-- +(?P<why>\S.*)$")


@dataclass(frozen=True)
class Mutant:
    """One mutant as mutmut names it, with the change it makes in plain code."""

    name: str
    exit_code: int | None
    original: str = ""
    mutated: str = ""

    @property
    def function(self) -> str:
        """`module.function` or `module.Class.method` (stable while other code moves)."""
        qualified = MUTANT_SUFFIX.sub("", self.name).removeprefix(MUTATED.replace("/", ".") + ".")
        module, _, mangled = qualified.rpartition(".")
        if mangled.startswith("x\u01c1"):
            mangled = mangled[2:].replace("\u01c1", ".")
        else:
            mangled = mangled.removeprefix("x_")
        return f"{module}.{mangled}"

    @property
    def key(self) -> tuple[str, str, str]:
        """What the equivalent list matches on: the function and the changed code, not the
        mutant's number or line, both of which move whenever the function is edited."""
        return (self.function, self.original, self.mutated)

    def entry(self, why: str = "WHY NO TEST CAN TELL") -> str:
        """The line for the equivalent list."""
        return f"{self.function}: `{self.original}` -> `{self.mutated}` -- {why}"


def is_prose(node: object) -> bool:
    """A string literal written for people: an f-string, or text with a space in it
    (error sentences, event reasons, descriptions). Their wording is not a verdict."""
    import libcst as cst

    if isinstance(node, cst.FormattedString | cst.ConcatenatedString):
        return True
    return isinstance(node, cst.SimpleString) and " " in str(node.evaluated_value)


def leave_prose_alone() -> None:
    """Make mutmut skip mutants that only reword, drop or blank out a prose literal, or
    change what an f-string message says about its values.

    Text for people (a raised error's sentence, an event's reason) is checked by the
    tests that care about it, not letter by letter; counting its mutants would bury the
    wrong verdicts this run is for under hundreds of reworded messages. Strings that
    are data (keys, modes, names without spaces) are still mutated. Patched in place in
    mutmut's operator list, before any mutant is made; forked workers inherit it."""
    import libcst as cst
    from mutmut.mutation import file_mutation, mutators

    if getattr(mutators, "_courtpiece_prose", False):
        return
    mutators._courtpiece_prose = True  # type: ignore[attr-defined]
    skip_before = file_mutation.MutationVisitor._skip_node_and_children

    def skip(visitor: Any, node: Any) -> bool:
        # An f-string is a message as a whole: the expressions inside only fill it in.
        return isinstance(node, cst.FormattedString) or bool(skip_before(visitor, node))

    file_mutation.MutationVisitor._skip_node_and_children = skip  # type: ignore[method-assign]

    def strings(node: Any) -> Iterator[Any]:
        if not is_prose(node):
            yield from mutators.operator_string(node)

    def arguments(node: Any) -> Iterator[Any]:
        for mutant in mutators.operator_arg_removal(node):
            kept = {id(a) for a in mutant.args}
            changed = [a for a in node.args if id(a) not in kept]
            if not (changed and all(is_prose(a.value) for a in changed)):
                yield mutant

    swap = {mutators.operator_string: strings, mutators.operator_arg_removal: arguments}
    mutators.mutation_operators[:] = [(kind, swap.get(op, op)) for kind, op in mutators.mutation_operators]


def run_mutmut_here(argv: list[str]) -> int:
    """Entry point of the mutmut subprocess: mutmut's own command line, minus prose."""
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        del sys.path[0]  # bench/ holds files named like packages (vision.py)
    leave_prose_alone()
    from mutmut.__main__ import cli

    return int(cli.main(args=argv, prog_name="mutmut", standalone_mode=False) or 0)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sample", type=int, default=0, metavar="N",
                   help="run N mutants drawn at random instead of all of them")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the sample (default 0)")
    p.add_argument("--only", action="append", default=[], metavar="GLOB",
                   help="only mutants of functions matching GLOB, e.g. 'trick.*' (repeatable)")
    p.add_argument("--workers", type=int, default=MAX_WORKERS,
                   help=f"mutmut worker processes (at most {MAX_WORKERS}, the machine is shared)")
    p.add_argument("--part", choices=sorted(PARTS), default="rules",
                   help="rules: the engine (default); referee: its action mapping and event audiences")
    p.add_argument("--workdir", type=Path, default=None,
                   help="scratch folder for the snapshot (wiped at every run; default "
                        "$TMPDIR/courtpiece-mutation-UID, with -PART for a part other than rules)")
    p.add_argument("--ref", default="HEAD",
                   help="commit to test (default HEAD: committed files only)")
    p.add_argument("--worktree", action="store_true",
                   help="test the working tree as it is instead of a commit (while writing tests)")
    p.add_argument("--property-tests", action="store_true",
                   help="also run each survivor against the property tests (slow; off: a mutant only "
                        "they would kill counts as survived)")
    p.add_argument("--report", action="store_true",
                   help="only report the last run's results in --workdir (run nothing)")
    p.add_argument("--quiet", action="store_true", help="hide mutmut's own progress output")
    args = p.parse_args(argv)
    if not 1 <= args.workers <= MAX_WORKERS:
        p.error(f"--workers must be 1..{MAX_WORKERS}")
    return args


def star_match(pattern: str, text: str) -> bool:
    """Whether ``text`` matches ``pattern``, where only ``*`` is special (any text)."""
    return re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), text, re.DOTALL) is not None


def is_listed(m: Mutant, equivalents: dict[tuple[str, str, str], str]) -> tuple[str, str, str] | None:
    """The equivalent-list entry that covers this mutant, if any. An entry may use ``*``
    in any part, for one kind of change that is equivalent wherever it appears (a
    parameter nothing reads, a field nothing reads)."""
    if m.key in equivalents:
        return m.key
    for key in equivalents:
        if any("*" in part for part in key) and all(map(star_match, key, m.key)):
            return key
    return None


def load_equivalents(path: Path = EQUIVALENT_LIST) -> dict[tuple[str, str, str], str]:
    """The checked-in equivalent mutants: key -> the reason no test can tell them apart."""
    found: dict[tuple[str, str, str], str] = {}
    if not path.exists():
        return found
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = ENTRY.match(line)
        if m is None:
            raise SystemExit(f"{path.name}:{number}: not 'function: `old` -> `new` -- why': {line}")
        found[(m["function"], m["original"], m["mutant"])] = m["why"]
    return found


def make_snapshot(workdir: Path, ref: str | None) -> str:
    """Fill a fresh scratch folder with the package, the rules tests and mutmut's config.

    The files come from the commit `ref` (`git archive`), so a half-made edit in the shared
    working tree never gets in; with `ref=None` they are copied from the working tree.
    The whole `controller` package is copied (the property tests drive bots from
    `controller.sim.bots`), but only `controller/rules/` is mutated. Returns what was copied."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    # A part that names its tests gets only those (and their helpers): mutmut collects
    # every test file it is given, and some need files outside the snapshot.
    tests = [TESTS] if SELECTION[0] == TESTS else [*SELECTION, *TEST_HELPERS]
    parts = [PACKAGE, "tests/conftest.py", *tests]
    if ref is None:
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "static", "templates")
        shutil.copytree(ROOT / PACKAGE, workdir / PACKAGE, ignore=ignore)
        (workdir / "tests").mkdir()
        shutil.copy2(ROOT / "tests" / "conftest.py", workdir / "tests" / "conftest.py")
        for t in tests:
            if (ROOT / t).is_dir():
                shutil.copytree(ROOT / t, workdir / t, ignore=ignore)
            else:
                (workdir / t).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / t, workdir / t)
        described = "the working tree"
    else:
        commit = git("rev-parse", "--short", ref).decode().strip()
        with tarfile.open(fileobj=io.BytesIO(git("archive", commit, *parts))) as archive:
            archive.extractall(workdir, filter="data")
        described = f"commit {commit}"
    (workdir / f"{ORDER_PLUGIN}.py").write_text(ORDER_PLUGIN_CODE)
    pytest_args = ["-p", "no:cacheprovider", "-p", ORDER_PLUGIN, f"--hypothesis-seed={HYPOTHESIS_SEED}"]
    (workdir / "pyproject.toml").write_text(
        "[tool.mutmut]\n"
        f"source_paths = [{json.dumps(PACKAGE)}]\n"
        f"only_mutate = {json.dumps([f'{MUTATED}/{g}' for g in MUTATED_FILES])}\n"
        f"pytest_add_cli_args = {json.dumps(pytest_args)}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(list(SELECTION))}\n"
        f"also_copy = [{json.dumps(ORDER_PLUGIN + '.py')}]\n"
        "use_git_change_detection = false\n"
        "\n[tool.pytest.ini_options]\n"
        'addopts = "-q --import-mode=importlib"\n'
    )
    return described


def git(*args: str) -> bytes:
    """Output of a git command in the repository."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True).stdout


def mutmut(workdir: Path, args: list[str], quiet: bool) -> None:
    """Run the mutmut command line in the snapshot (its own process: it forks workers)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.DEVNULL if quiet else None
    command = [sys.executable, str(Path(__file__).resolve()), AS_MUTMUT, *args]
    # Its own process group, so that stopping this script stops mutmut's workers too.
    child = subprocess.Popen(command, cwd=workdir, env=env, stdout=out, start_new_session=True)
    try:
        code = child.wait()
    except BaseException:
        os.killpg(child.pid, signal.SIGKILL)
        raise
    if code != 0:
        raise SystemExit(f"mutmut {args[0]} failed with exit code {code}")


def run_unattributed(workdir: Path, names: dict[str, str], workers: int) -> dict[str, int]:
    """Run each mutant mutmut's pass did not kill against all the part's tests.

    Two kinds: survivors of the scenario tests (the property tests may still catch them),
    and mutants of code no traced test calls (code that runs only at import is called by
    no test, yet every test would fail on it). Each gets the full rules suite, stopping
    at the first failure; a survivor of the scenario tests needs only the property tests
    (``names`` maps each mutant to the tests to run). Returns pytest's exit code per mutant."""
    base = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", ORDER_PLUGIN,
            f"--hypothesis-seed={HYPOTHESIS_SEED}"]
    codes: dict[str, int] = {}
    waiting = sorted(names)
    running: dict[str, subprocess.Popen[bytes]] = {}
    while waiting or running:
        while waiting and len(running) < workers:
            name = waiting.pop()
            env = dict(os.environ, MUTANT_UNDER_TEST=name, PYTHONDONTWRITEBYTECODE="1")
            command = [*base, *SELECTION] if names[name] != SLOW_TESTS else [*base, SLOW_TESTS]
            running[name] = subprocess.Popen(command, cwd=workdir / "mutants", env=env,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        name = next(iter(running))
        codes[name] = running.pop(name).wait()
    return codes


def read_results(workdir: Path) -> list[Mutant]:
    """Every mutant of the snapshot with mutmut's exit code (None: not run)."""
    found: list[Mutant] = []
    for meta in sorted(m for g in MUTATED_FILES for m in (workdir / "mutants" / MUTATED).glob(g + ".meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        found.extend(Mutant(name, code) for name, code in codes.items())
    return found


@contextmanager
def inside(folder: Path) -> Iterator[None]:
    """Work in `folder` for a while (mutmut's library calls resolve paths from there)."""
    here = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)


def generate(workdir: Path) -> dict[str, Path]:
    """Every mutant name mutmut will make, with the source file it belongs to.

    mutmut's own generator is used on the snapshot, so the names are the ones `mutmut run`
    makes; knowing them first is what lets a sample or a glob pick mutants by name."""
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.format_utils import get_mutant_name

    leave_prose_alone()
    names: dict[str, Path] = {}
    with inside(workdir):  # mutmut reads its config from the working directory
        for rel in sorted(r for g in MUTATED_FILES for r in Path(MUTATED).glob(g)):
            for name in mutate_file_contents(str(rel), rel.read_text()).mutant_names:
                names[get_mutant_name(rel, name).replace("__init__.", "")] = rel
    return names


def with_diff(workdir: Path, mutant: Mutant, source: Path) -> Mutant:
    """The mutant with its changed lines (from mutmut's own diff of the function)."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    with inside(workdir):
        diff = get_diff_for_mutant(mutant.name, path=source)
    body = diff.splitlines()[2:]
    old = " / ".join(line[1:].strip() for line in body if line.startswith("-"))
    new = " / ".join(line[1:].strip() for line in body if line.startswith("+"))
    return Mutant(mutant.name, mutant.exit_code, old, new)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    use_part(args.part)
    if args.workdir is None:
        suffix = "" if args.part == "rules" else f"-{args.part}"
        args.workdir = Path(tempfile.gettempdir()) / f"courtpiece-mutation-{os.getuid()}{suffix}"
    os.nice(10)
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill: stop the workers too
    equivalents = load_equivalents(EQUIVALENT_LIST)
    workdir: Path = args.workdir.resolve()
    if args.report:
        described = (workdir / SNAPSHOT_NOTE).read_text().strip()
    else:
        described = make_snapshot(workdir, None if args.worktree else args.ref)
        (workdir / SNAPSHOT_NOTE).write_text(described + "\n")

    sources = generate(workdir)
    pool = [Mutant(name, None) for name in sources]
    if args.only:
        pool = [m for m in pool if any(fnmatch.fnmatch(m.function, g) for g in args.only)]
    if args.sample:
        pool = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
    if not pool:
        raise SystemExit("no mutant matches")
    selected = sorted(m.name for m in pool)
    whole = not (args.sample or args.only)
    # With no names mutmut runs every mutant; naming them all would only make a long line.
    if not args.report:
        mutmut(workdir, ["run", "--max-children", str(args.workers), *([] if whole else selected)],
               quiet=args.quiet)

    results = {m.name: m for m in read_results(workdir)}
    # Every mutant mutmut did not kill runs again in a fresh process: untraced mutants
    # and survivors against all the part's scenario tests, or survivors against the
    # property tests when asked (slow: a minute each on a busy machine). A fresh process
    # matters: mutmut's forked workers imported the package before the mutant was
    # chosen, so code that runs at import time (the option table's field helper, the
    # event names) is never mutated there and such mutants "survive" every test.
    unattributed = {n: SLOW_TESTS if args.property_tests and results[n].exit_code in SURVIVED_CODES
                    else SCENARIO_TESTS
                    for n in selected if n in results
                    and results[n].exit_code in NO_TEST_CODES | SURVIVED_CODES}
    if unattributed and not args.report:
        print(f"{len(unattributed)} mutants to run again in a fresh process (survivors and untraced code"
              f"{', survivors with the property tests' if args.property_tests else ''})", flush=True)
        fallback = run_unattributed(workdir, unattributed, args.workers)
        (workdir / FALLBACK_NOTE).write_text(json.dumps(fallback))
    fallback = json.loads((workdir / FALLBACK_NOTE).read_text()) if (workdir / FALLBACK_NOTE).exists() else {}
    for name, code in fallback.items():
        if name in results:
            # pytest: 1 failed, 2 collection broke (the mutant fails to import), 3 internal error.
            results[name] = Mutant(name, 1 if code in (1, 2, 3) else code)
    killed = survived = equivalent = other = 0
    used: set[tuple[str, str, str]] = set()
    survivors: list[Mutant] = []
    for name in selected:
        m = results.get(name, Mutant(name, None))
        if m.exit_code in KILLED_CODES:
            killed += 1
        elif m.exit_code in SURVIVED_CODES or m.exit_code in NO_TEST_CODES:
            m = with_diff(workdir, m, sources[name])
            entry = is_listed(m, equivalents)
            if entry is not None:
                equivalent += 1
                used.add(entry)
            else:
                survived += 1
                survivors.append(m)
        else:
            other += 1
            print(f"not judged (mutmut exit code {m.exit_code}): {name}")
    for m in survivors:
        why = "no rules test calls this function" if m.exit_code in NO_TEST_CODES else "survived"
        print(f"{why}: {m.name}\n    {m.entry()}")
    if whole:
        for key in sorted(set(equivalents) - used):
            print(f"stale equivalent entry (no such surviving mutant): {key[0]}: `{key[1]}` -> `{key[2]}`")
    print(f"mutants of {described}: {len(selected)} run")
    total = killed + survived
    score = killed / total if total else 1.0
    extra = f" not_judged={other}" if other else ""
    print(f"mutation killed={killed} survived={survived} equivalent={equivalent}{extra} score={score:.3f}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == [AS_MUTMUT]:
        sys.exit(run_mutmut_here(sys.argv[2:]))
    sys.exit(main())
