"""hardware/install.sh in a fresh Debian Bookworm root: does a clean system end up with a
referee that answers?

Why a root built from Debian's own packages: the machine the script was written on
already had every package, group and folder the script creates, so a step that only
works there (a package Raspberry Pi OS has and Debian lacks, a tool that needs a
running systemd or udev) would not show. Here nothing is there but what debootstrap
puts in (systemd, udev, kmod, Python 3, CA certificates, as on Raspberry Pi OS Lite).

What runs, each in a chroot (systemd is not PID 1 there, so units are not started):

1. the root: ``debootstrap --variant=minbase bookworm`` once, kept as a tarball in
   ``--cache``; every run unpacks a fresh copy of it;
2. the project copied to /home/pi/courtpiece as a clone has it (the last commit, or
   with ``--source worktree`` the files as they are now);
3. ``hardware/install.sh --kiosk --kiosk-lang ur --camera`` (Debian packages, users,
   virtualenv, units), then a second time as an upgrade after a ``git pull`` would;
4. ``systemd-analyze verify`` of both installed units (with the language drop-in);
5. ``courtpiece --help`` from the virtualenv and from /usr/local/bin (the organiser's
   command, which runs as the service user through sudo);
6. the referee unit's ``ExecStart=`` run by hand as its ``User=``, in its
   ``WorkingDirectory=``, with ``$STATE_DIRECTORY`` made as ``StateDirectory=`` would
   make it, on a config with ``[hub] port = "virtual"`` (no hub): the dashboard must
   answer HTTP, and the admin PIN must be in its log;
7. the organiser's ``courtpiece pin --reset`` and ``courtpiece hub flash --dry-run``
   (mpremote in the virtualenv) through /usr/local/bin;
8. the root booted under its own systemd (``systemd-nspawn --boot``, Debian's
   ``systemd-container``; the container shares this machine's network) to its default
   target, graphical.target as the installer set it: systemd, not this script, starts
   the enabled referee unit with every setting of its sandbox (read-only system, device
   policy, system-call filter, no capabilities), waits for its ``READY=1``
   (``Type=notify``) and holds it to ``WatchdogSec=``. The dashboard must answer from
   outside the container, and the unit must still be running, never restarted, after
   more than one watchdog period. Then the table screen: the installed kiosk unit (its
   tty1, logind session, user, sandbox and ExecStart as installed) with one bench
   drop-in in the throw-away root, ``zz-bench.conf``: wlroots' headless backend and
   software renderer (no screen, GPU or keyboard here) and the installed ``KIOSK_URL``
   moved to step 6's port. tty1 (and tty0, so logind gives seat0 virtual terminals) is
   a pty this script holds. Chromium gets a DevTools port through Debian's
   /etc/chromium.d, and through it the bench reads what the kiosk shows: the address,
   the language and direction the page applied, its title in that language, and that
   its WebSocket to the referee is open. It must still be so, the unit never
   restarted, after the 40 s;
9. a second boot (the Pi switched off and on): the dashboard answers and the kiosk
   shows the table again in the same language (it lives in the unit's drop-in, not
   in Chromium's throw-away profile). A container has no udev, so the hub's device
   name is not shown here.

Too slow for CI (a few minutes; downloads Debian packages and wheels), so it is a bench
script. Needs root (debootstrap, chroot, mounts, systemd-nspawn), Debian's debootstrap
and systemd-container on this machine, the project's own Python environment
(websockets, for DevTools), and network access to a Debian mirror and PyPI. apt's and
pip's downloads are kept in ``--cache`` too, so a second run downloads little.

    sudo python bench/install_root.py [--cache /var/tmp/courtpiece-root] [--keep]

Ends with one line: ``install_root ok=1 seconds=... service_answers=1 ... kiosk_table_loaded=1 ...``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

REPO = Path(__file__).resolve().parents[1]
SUITE = "bookworm"
#: what Raspberry Pi OS Lite has that debootstrap's minimal variant leaves out and the
#: installer relies on being there (it installs the rest itself)
BASE_PACKAGES = ["systemd", "systemd-sysv", "udev", "kmod", "python3", "ca-certificates"]
CHECKOUT = "/home/pi/courtpiece"
REFEREE_UNIT = "/etc/systemd/system/courtpiece.service"
KIOSK_UNIT = "/etc/systemd/system/courtpiece-kiosk.service"
#: the bench's own drop-in for the kiosk (sorts after the installer's language.conf)
KIOSK_BENCH_DROPIN = KIOSK_UNIT + ".d/zz-bench.conf"
#: Debian's /usr/bin/chromium sources /etc/chromium.d/*: the bench's DevTools port
CHROMIUM_BENCH_FLAGS = "/etc/chromium.d/zz-bench"
#: what the table page says about itself, read through DevTools: the address, the
#: language and direction i18n.js applied, whether its WebSocket to the referee is open
#: (table-page.js sets data-live), and the title in the page's language
PAGE_PROBE = ("JSON.stringify({href: location.href, lang: document.documentElement.lang,"
              " dir: document.documentElement.dir, live: document.body.dataset.live || '',"
              " title: (document.querySelector('.bar .title') || {}).textContent || ''})")
INSTALL_OPTIONS = ["--kiosk", "--kiosk-lang", "ur", "--camera"]

# Mounts a chroot needs, made in a private mount namespace (unshare --mount), so they
# vanish with the last process in it, whatever happens to this script.
ENTER = r"""
set -e
R=$1; CACHE=$2; shift 2
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys" && mount --make-rslave "$R/sys"
mount --rbind /dev "$R/dev" && mount --make-rslave "$R/dev"
mount -t tmpfs -o mode=0755 tmpfs "$R/run"
mkdir -p "$CACHE/apt" "$CACHE/pip" "$R/root/.cache/pip"
mount --bind "$CACHE/apt" "$R/var/cache/apt/archives"
mount --bind "$CACHE/pip" "$R/root/.cache/pip"
exec chroot "$R" "$@"
"""


@dataclass
class Run:
    """What one run found; ``summary`` is the bench's last line."""

    steps: dict[str, float] = field(default_factory=dict)
    checks: dict[str, int] = field(default_factory=dict)
    base: str = "cached"
    failed: str = ""

    def summary(self, seconds: float) -> str:
        ok = int(not self.failed and bool(self.checks) and all(self.checks.values()))
        parts = [f"install_root ok={ok} seconds={seconds:.0f} base={self.base}"]
        parts += [f"failed={self.failed}"] if self.failed else []
        parts += [f"{k}={v}" for k, v in self.checks.items()]
        parts += [f"{k}_s={v:.0f}" for k, v in self.steps.items()]
        return " ".join(parts)


class Root:
    """A Bookworm root in ``path``; commands run in it through chroot."""

    def __init__(self, path: Path, cache: Path, log: Path) -> None:
        self.path = path
        self.cache = cache
        self.log = log

    def run(self, argv: list[str], *, check: bool = True, timeout: float = 1800,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(self.command(argv, env), capture_output=True, text=True, timeout=timeout)
        with self.log.open("a") as f:
            f.write(f"\n$ {' '.join(argv)}\n{done.stdout}{done.stderr}[exit {done.returncode}]\n")
        if check and done.returncode != 0:
            raise StepFailed(f"{' '.join(argv)} exited {done.returncode}:\n{tail(done.stdout + done.stderr)}")
        return done

    def command(self, argv: list[str], env: dict[str, str] | None = None) -> list[str]:
        base_env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                    "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb"}
        envs = [f"{k}={v}" for k, v in {**base_env, **(env or {})}.items()]
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", ENTER, "enter",
                str(self.path), str(self.cache), "env", "-i", *envs, *argv]

    def file(self, inside: str) -> Path:
        return self.path / inside.lstrip("/")


class StepFailed(Exception):
    """A step's command failed; the message ends with the tail of its output."""


def tail(text: str, lines: int = 25) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


def timed(run: Run, name: str):
    class Timer:
        def __enter__(self) -> None:
            self.t = time.monotonic()
            print(f"-- {name}", flush=True)

        def __exit__(self, kind: type | None, *exc: object) -> None:
            run.steps[name] = time.monotonic() - self.t
            if kind is not None and not run.failed:
                run.failed = name

    return Timer()


def base_tarball(cache: Path, mirror: str, run: Run) -> Path:
    """The Bookworm root as a tarball in the cache, made by debootstrap the first time."""
    tarball = cache / f"{SUITE}-amd64-minbase.tar"
    if tarball.exists():
        return tarball
    if shutil.which("debootstrap") is None:
        raise StepFailed("debootstrap is missing: sudo apt-get install debootstrap")
    run.base = "built"
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        target = Path(tmp) / "root"
        done = subprocess.run(["debootstrap", "--variant=minbase", f"--include={','.join(BASE_PACKAGES)}",
                               SUITE, str(target), mirror], capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            raise StepFailed(f"debootstrap failed:\n{tail(done.stdout + done.stderr)}")
        partial = tarball.with_suffix(".partial")
        subprocess.run(["tar", "-C", str(target), "--numeric-owner", "-cf", str(partial), "."], check=True)
        partial.rename(tarball)
    return tarball


def unpack(tarball: Path, root: Path, mirror: str) -> None:
    root.mkdir(parents=True)
    subprocess.run(["tar", "-C", str(root), "--numeric-owner", "-xf", str(tarball)], check=True)
    # names and the network of this machine, as the Pi has its own; Debian's archives
    # with updates, as an installed system has them (debootstrap writes only the first)
    shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
    (root / "etc" / "apt" / "sources.list").write_text(
        f"deb {mirror} {SUITE} main\ndeb {mirror} {SUITE}-updates main\n"
        f"deb http://deb.debian.org/debian-security {SUITE}-security main\n")
    (root / "etc" / "hostname").write_text("courtpiece-table\n")
    # dpkg's fsync per file makes a chroot install crawl on a busy disk; a throw-away
    # root needs none of it
    (root / "etc" / "dpkg" / "dpkg.cfg.d" / "bench-unsafe-io").write_text("force-unsafe-io\n")


def trust_this_machines_certificates(root: Path) -> int:
    """Certificates this machine trusts and a fresh Debian does not (a proxy here that
    inspects TLS, say), added the Debian way so pip in the root reaches PyPI as it
    does here. Nothing to do with the Pi; returns how many were added."""
    def certificates(bundle: Path) -> list[str]:
        text = bundle.read_text() if bundle.exists() else ""
        return re.findall(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", text, re.S)

    theirs = set(certificates(root / "etc/ssl/certs/ca-certificates.crt"))
    extra = [c for c in certificates(Path("/etc/ssl/certs/ca-certificates.crt")) if c not in theirs]
    folder = root / "usr/local/share/ca-certificates"
    folder.mkdir(parents=True, exist_ok=True)
    for i, cert in enumerate(extra):
        (folder / f"bench-host-{i}.crt").write_text(cert + "\n")
    return len(extra)


def copy_checkout(root: Path, source: str) -> None:
    """The project as a fresh clone has it: ``head`` is the last commit (git archive);
    ``worktree`` the files as they are now, tracked or new (not the ignored ones), to
    try a change before committing it."""
    dest = root / CHECKOUT.lstrip("/")
    dest.mkdir(parents=True)
    if source == "head":
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "HEAD"],
                                 capture_output=True, check=True)
        subprocess.run(["tar", "-C", str(dest), "-xf", "-"], input=archive.stdout, check=True)
        return
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True)
    for name in listed.stdout.decode().split("\0"):
        path = REPO / name
        if not name or not path.is_file():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def unit_settings(text: str) -> dict[str, str]:
    """The [Service] settings of a unit file (last one wins, as systemd reads them)."""
    settings: dict[str, str] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings[key] = value
    return settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config_for_the_bench(text: str, port: int) -> str:
    """The installed table.toml with no hub (``[hub] port = "virtual"``) and the dashboard
    on a free loopback port (the chroot shares this machine's network)."""
    text, n = re.subn(r'(?m)^\[web\]\nhost = "0\.0\.0\.0"$', f'[web]\nhost = "127.0.0.1"\nport = {port}', text)
    if n != 1:
        raise StepFailed('the installed table.toml has no [web] host = "0.0.0.0" line to move')
    return text + '\n[hub]\nport = "virtual"\n'


def start_service(root: Root, port: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The referee unit's ExecStart, started the way systemd would start it."""
    unit = unit_settings(root.file(REFEREE_UNIT).read_text())
    user, group = unit["User"], unit.get("Group", unit["User"])
    state = "/var/lib/" + unit["StateDirectory"]
    # StateDirectory=: systemd makes it, owned by the unit's user, before ExecStart
    root.run(["install", "-d", "-o", user, "-g", group, "-m", unit.get("StateDirectoryMode", "0755"), state])
    config = root.file("/etc/courtpiece/table.toml")
    config.write_text(config_for_the_bench(config.read_text(), port))
    groups = ",".join([group, *unit.get("SupplementaryGroups", "").split()])
    exec_start = unit["ExecStart"]
    shell = (f"umask {unit.get('UMask', '0022')}; cd {unit.get('WorkingDirectory', '/')} && "
             f"exec setpriv --reuid={user} --regid={group} --groups={groups} --inh-caps=-all {exec_start}")
    env = {"STATE_DIRECTORY": state, "CONFIGURATION_DIRECTORY": "/etc/courtpiece", "HOME": state}
    out = log.open("wb")
    proc = subprocess.Popen(root.command(["sh", "-c", shell], env), stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)
    return proc, exec_start


def answers(url: str, deadline: float, proc: subprocess.Popen[bytes]) -> bool:
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            time.sleep(1)
    return False


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def container_init(nspawn: int, deadline: float) -> int:
    """The pid (here) of the container's PID 1: the ``systemd`` that nspawn's child starts."""
    while time.monotonic() < deadline:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
            if fields.get("Name", "").strip() != "systemd":
                continue
            parent = int(fields.get("PPid", "0").strip() or 0)
            grandparent = 0
            try:
                grandparent = int(Path(f"/proc/{parent}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
            if nspawn in (parent, grandparent):
                return int(pid)
        time.sleep(0.5)
    raise StepFailed("the booted container's systemd never showed up")


def inside(init: int, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in the booted container's namespaces (no machined here to ask)."""
    return subprocess.run(["nsenter", "-t", str(init), "-m", "-u", "-i", "-p", "--", *argv],
                          capture_output=True, text=True, timeout=60)


def unit_state(init: int, unit: str = "courtpiece.service") -> dict[str, str]:
    shown = inside(init, ["/bin/systemctl", "show", unit,
                          "-p", "ActiveState", "-p", "SubState", "-p", "NRestarts", "-p", "Result"])
    return dict(line.split("=", 1) for line in shown.stdout.splitlines() if "=" in line)


def running(state: dict[str, str]) -> bool:
    """Running, and never restarted since the boot (a crash loop shows as restarts)."""
    return state.get("SubState") == "running" and state.get("NRestarts") == "0"


def kiosk_url(root: Root) -> str:
    """The KIOSK_URL systemd gives the installed kiosk unit: the unit's, then its
    drop-ins' in name order (the installer's language.conf), the last one winning."""
    unit = root.file(KIOSK_UNIT)
    dropins = sorted(p for p in unit.with_name(unit.name + ".d").glob("*.conf")
                     if p.name != Path(KIOSK_BENCH_DROPIN).name)
    url = ""
    for path in [unit, *dropins]:
        for line in path.read_text().splitlines():
            if line.startswith("Environment=KIOSK_URL="):
                url = line.removeprefix("Environment=KIOSK_URL=")
    return url


def prepare_kiosk(root: Root, port: int, devtools: int, url: str | None = None) -> str:
    """The smallest change that lets the installed kiosk unit run in a container, written
    into the throw-away root only: wlroots' headless backend and software renderer (no
    screen, GPU or input devices here), and the installed KIOSK_URL moved to the port
    step 6 gave the referee. Chromium gets a DevTools port through Debian's own
    /etc/chromium.d, so the unit's ExecStart stays as installed. Returns the address
    the kiosk should show (``url`` replaces it, to see the check fail)."""
    url = url or kiosk_url(root).replace("//127.0.0.1:8000/", f"//127.0.0.1:{port}/")
    dropin = root.file(KIOSK_BENCH_DROPIN)
    dropin.parent.mkdir(exist_ok=True)
    dropin.write_text("# bench/install_root.py: no screen, GPU or keyboard in a container\n[Service]\n"
                      "Environment=WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1\n"
                      f"Environment=KIOSK_URL={url}\n")
    root.file(CHROMIUM_BENCH_FLAGS).write_text(
        f'export CHROMIUM_FLAGS="$CHROMIUM_FLAGS --remote-debugging-port={devtools}"\n')
    return url


def expected_page(root: Root, url: str) -> dict[str, str]:
    """What the table page shows at ``url`` once loaded: its language (``?lang=``) with
    that language's direction and title from the installed i18n files, and live."""
    lang = parse_qs(urlsplit(url).query).get("lang", ["en"])[0]
    words = json.loads(root.file(f"{CHECKOUT}/controller/web/static/i18n/{lang}.json").read_text())
    return {"href": url, "lang": lang, "dir": words.get("_meta", {}).get("dir", "ltr"),
            "live": "1", "title": words["app.title"]}


def page_state(devtools: int) -> dict[str, str]:
    """The kiosk's page as Chromium has it (PAGE_PROBE), through its DevTools port; empty
    while there is no page yet."""
    from websockets.sync.client import connect  # the project's own dependency

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{devtools}/json/list", timeout=5) as r:
            targets = json.load(r)
        page = next(t for t in targets if t.get("type") == "page")
        with connect(page["webSocketDebuggerUrl"], open_timeout=10, max_size=None) as ws:
            ws.send(json.dumps({"id": 1, "method": "Runtime.evaluate",
                                "params": {"expression": PAGE_PROBE, "returnByValue": True}}))
            reply: dict = {}
            while reply.get("id") != 1:
                reply = json.loads(ws.recv(timeout=10))
        return json.loads(reply["result"]["result"]["value"])
    except (OSError, ValueError, KeyError, StopIteration, TimeoutError, urllib.error.URLError) as e:
        return {"error": str(e) or type(e).__name__}
    except Exception as e:  # websockets' own errors: the page went away meanwhile
        return {"error": f"{type(e).__name__}: {e}"}


def matches(seen: dict[str, str], want: dict[str, str]) -> bool:
    return all(seen.get(k) == v for k, v in want.items())


def kiosk_shows(devtools: int, want: dict[str, str], deadline: float) -> tuple[bool, dict[str, str]]:
    """Wait until the kiosk's page is ``want`` (the WebSocket opens a moment after load)."""
    seen: dict[str, str] = {}
    while time.monotonic() < deadline:
        seen = page_state(devtools)
        if matches(seen, want):
            return True, seen
        time.sleep(2)
    return False, seen


@contextlib.contextmanager
def console() -> Iterator[str]:
    """A terminal to stand in for the Pi's tty1 (and tty0, whose presence tells logind
    that seat0 has virtual terminals, as the unit's session on tty1 needs): a pty whose
    other end this script holds open and drains. Yields the terminal's path."""
    master, slave = os.openpty()
    done = threading.Event()

    def drain() -> None:
        while not done.is_set():
            try:
                if select.select([master], [], [], 0.5)[0]:
                    os.read(master, 4096)
            except OSError:
                time.sleep(0.2)

    thread = threading.Thread(target=drain, daemon=True)
    thread.start()
    try:
        yield os.ttyname(slave)
    finally:
        done.set()
        thread.join(timeout=5)
        os.close(slave)
        os.close(master)


@contextlib.contextmanager
def booted(root: Root, log: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """The root booted to its default target (graphical.target, set by the installer)
    under its own systemd; yields the container's PID 1 (as this machine sees it) and
    nspawn's process, and powers the container off afterwards."""
    if shutil.which("systemd-nspawn") is None:
        raise StepFailed("systemd-nspawn is missing: apt-get install systemd-container")
    with console() as tty, log.open("ab") as out:
        # --register=no --keep-unit: this machine's PID 1 is not systemd, so there is no
        # machined or scope to ask for
        proc = subprocess.Popen(["systemd-nspawn", "-D", str(root.path), "--boot", "--register=no", "--keep-unit",
                                 f"--bind={tty}:/dev/tty1", f"--bind={tty}:/dev/tty0", "-q"],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            yield container_init(proc.pid, time.monotonic() + 60), proc
        finally:
            # SIGTERM to nspawn asks the container's systemd to power off
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def show_kiosk_log(init: int) -> None:
    """The kiosk's log: the unit's own lines, and cage's and Chromium's (pam_systemd moves
    them into the session's scope, so they are under the name cage, not the unit)."""
    for match in (["-u", "courtpiece-kiosk.service"], ["-t", "cage"]):
        logged = inside(init, ["/bin/journalctl", "-b", "--no-pager", "-o", "cat", *match])
        print(tail(logged.stdout + logged.stderr, 20), file=sys.stderr)


def check_kiosk(init: int, devtools: int, want: dict[str, str], wait: float, hold: float = 10) -> bool:
    """The kiosk unit running, never restarted, with Chromium showing ``want``, and
    still so ``hold`` seconds later (a browser that crashes restarts the unit)."""
    shows, seen = kiosk_shows(devtools, want, time.monotonic() + wait)
    time.sleep(hold)
    shows = shows and matches(page_state(devtools), want)
    state = unit_state(init, "courtpiece-kiosk.service")
    print(f"   kiosk: courtpiece-kiosk.service {state}\n   kiosk page: {seen}", flush=True)
    if not shows or not running(state):
        show_kiosk_log(init)
    return shows and running(state)


def boot(root: Root, port: int, wait: float, log: Path, run: Run, devtools: int, page: dict[str, str]) -> None:
    """Step 8: systemd starts the referee, sandbox and watchdog included, then the table
    screen on the kiosk's address."""
    with booted(root, log) as (init, proc):
        up = answers(f"http://127.0.0.1:{port}/api/state", time.monotonic() + wait, proc)
        started = time.monotonic()
        first = unit_state(init)
        print(f"   booted: courtpiece.service {first}", flush=True)
        run.checks["boot_answers"] = int(up)
        run.checks["boot_unit_running"] = int(first.get("SubState") == "running")
        shows, seen = kiosk_shows(devtools, page, time.monotonic() + wait)
        print(f"   kiosk page: {seen}", flush=True)
        # longer than WatchdogSec=30: a service whose pings the sandbox stopped is restarted
        # by now, and so is a kiosk whose browser crashes
        time.sleep(max(0.0, 40 - (time.monotonic() - started)))
        later = unit_state(init)
        alive = answers(f"http://127.0.0.1:{port}/api/state", time.monotonic() + 10, proc)
        print(f"   after 40 s: courtpiece.service {later}", flush=True)
        run.checks["boot_watchdog_held"] = int(running(later) and alive)
        if not all((up, alive)) or later.get("NRestarts") != "0":
            logged = inside(init, ["/bin/journalctl", "-u", "courtpiece.service", "--no-pager", "-o", "cat"])
            print(tail(logged.stdout + logged.stderr, 40), file=sys.stderr)
        kiosk = unit_state(init, "courtpiece-kiosk.service")
        print(f"   after 40 s: courtpiece-kiosk.service {kiosk}", flush=True)
        run.checks["kiosk_running"] = int(running(kiosk))
        # still there and live after 40 s, not a page that came and went with its browser
        run.checks["kiosk_table_loaded"] = int(shows and matches(page_state(devtools), page))
        if not running(kiosk) or not shows:
            show_kiosk_log(init)


def reboot(root: Root, port: int, wait: float, log: Path, run: Run, devtools: int, page: dict[str, str]) -> None:
    """Step 9: the next boot brings the referee and the table screen back, in the same
    language (the language lives in the unit's drop-in, not in the browser's profile)."""
    with booted(root, log) as (init, proc):
        run.checks["reboot_answers"] = int(answers(f"http://127.0.0.1:{port}/api/state", time.monotonic() + wait, proc))
        run.checks["reboot_kiosk_table_loaded"] = int(check_kiosk(init, devtools, page, wait))


def bench(args: argparse.Namespace, run: Run) -> None:
    cache: Path = args.cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    with timed(run, "base"):
        tarball = base_tarball(cache, args.mirror, run)
    work = Path(tempfile.mkdtemp(prefix="root-", dir=cache))
    root = Root(work / "root", cache, work / "install.log")
    print(f"   root {root.path}, log {root.log}", flush=True)
    try:
        with timed(run, "unpack"):
            unpack(tarball, root.path, args.mirror)
            copy_checkout(root.path, args.source)
            if trust_this_machines_certificates(root.path):
                root.run(["update-ca-certificates"])
        with timed(run, "install"):
            done = root.run(["bash", f"{CHECKOUT}/hardware/install.sh", *INSTALL_OPTIONS])
            run.checks["install"] = int("==> done." in done.stdout)
        with timed(run, "reinstall"):
            done = root.run(["bash", f"{CHECKOUT}/hardware/install.sh", *INSTALL_OPTIONS])
            run.checks["reinstall"] = int("keeping existing /etc/courtpiece/table.toml" in done.stdout)
        verify = root.run(["systemd-analyze", "verify", REFEREE_UNIT, KIOSK_UNIT], check=False)
        run.checks["units_verify"] = int(verify.returncode == 0)
        language = root.file(KIOSK_UNIT + ".d/language.conf")
        run.checks["kiosk_lang"] = int(language.exists() and "/table?lang=ur" in language.read_text())
        if verify.returncode != 0:
            print(tail(verify.stdout + verify.stderr), file=sys.stderr)
        # --camera: numpy of Debian's major (1), so Debian's picamera2 and simplejpeg,
        # built against it, import beside the program's OpenCV
        versions = root.run(["/opt/courtpiece/venv/bin/python", "-c",
                             "import numpy, cv2; print(numpy.__version__, cv2.__version__)"], check=False)
        print(f"   venv numpy, OpenCV: {versions.stdout.strip() or versions.stderr.strip()[-200:]}", flush=True)
        run.checks["camera_numpy1"] = int(versions.returncode == 0 and versions.stdout.startswith("1."))
        helped = root.run(["/opt/courtpiece/venv/bin/courtpiece", "--help"], check=False)
        run.checks["venv_help"] = int(helped.returncode == 0 and "usage" in helped.stdout.lower())
        admin = root.run(["/usr/local/bin/courtpiece", "--help"], check=False)
        run.checks["admin_help"] = int(admin.returncode == 0 and "usage" in admin.stdout.lower())
        port = free_port()
        with timed(run, "service_start"):
            proc, exec_start = start_service(root, port, work / "service.log")
            try:
                up = answers(f"http://127.0.0.1:{port}/api/state", time.monotonic() + args.wait, proc)
                table = answers(f"http://127.0.0.1:{port}/table", time.monotonic() + 10, proc) if up else False
            finally:
                stop(proc)
        service_log = (work / "service.log").read_text(errors="replace")
        run.checks["service_answers"] = int(up and table)
        run.checks["pin_logged"] = int("admin PIN" in service_log)
        if not up:
            print(f"{exec_start} did not answer:\n{tail(service_log)}", file=sys.stderr)
        # the organiser's commands from docs/install.md, through /usr/local/bin (sudo)
        reset = root.run(["/usr/local/bin/courtpiece", "pin", "--reset"], check=False)
        run.checks["pin_reset"] = int(reset.returncode == 0 and "new admin PIN" in reset.stdout)
        flash = root.run(["/usr/local/bin/courtpiece", "hub", "flash", "--dry-run"], check=False)
        run.checks["hub_flash_plan"] = int(flash.returncode == 0 and "mpremote" in flash.stdout)
        devtools = free_port()
        url = prepare_kiosk(root, port, devtools)
        page = expected_page(root, url)
        print(f"   kiosk address (installed, on the bench's port): {url}", flush=True)
        with timed(run, "boot"):
            boot(root, port, args.wait, work / "boot.log", run, devtools, page)
        with timed(run, "reboot"):
            reboot(root, port, args.wait, work / "boot.log", run, devtools, page)
    finally:
        if args.keep:
            print(f"   kept {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=Path("/var/tmp/courtpiece-root"),
                    help="folder for the Bookworm tarball, apt's and pip's downloads and the "
                         "throw-away roots (default: %(default)s)")
    ap.add_argument("--mirror", default="http://deb.debian.org/debian", help="Debian mirror for debootstrap")
    ap.add_argument("--wait", type=float, default=180, help="seconds to wait for the dashboard to answer")
    ap.add_argument("--source", choices=("head", "worktree"), default="head",
                    help="the last commit, as a clone has it, or the working tree's files "
                         "(uncommitted changes too) (default: %(default)s)")
    ap.add_argument("--keep", action="store_true", help="keep the root and its logs afterwards")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root (debootstrap, chroot, mounts): sudo python bench/install_root.py")
    run = Run()
    started = time.monotonic()
    try:
        bench(args, run)
    except StepFailed as e:
        print(f"error: {e}", file=sys.stderr)
        run.failed = run.failed or "check"
    print(run.summary(time.monotonic() - started))


if __name__ == "__main__":
    main()
