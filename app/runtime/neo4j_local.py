"""A local Neo4j Community server assembled from Maven Central, for machines without Docker.

Layout under settings.home (ignored by git):
    neo4j/lib/            the server's jars (copied by Maven from scripts/neo4j/pom.xml)
    neo4j/lib/.complete   written last: an install without it is half-done and is redone
    neo4j/<instance>/     conf/neo4j.conf, data/, logs/, plugins/, run/neo4j.pid
The jars are shared; an instance ("default"; the tests use "test") has its own data and ports.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from app.settings import PROJECT_ROOT, Settings

POM = PROJECT_ROOT / "scripts" / "neo4j" / "pom.xml"
MIN_JAVA = 21  # Neo4j 2026.x runs on Java 21 or 25
ENTRY_POINT = "org.neo4j.server.Neo4jCommunity"

# What the official tarball passes to the JVM, less what only matters for Enterprise, with the
# parallel collector instead of G1: G1's write barriers and concurrent work cost CPU that a
# two-core machine serving searches lacks (in-process lab, 100k-episode tenant, 8 searches at
# once, each measured after a restart: Neo4j CPU per search 14.07 -> 12.53 ms, 87.1 -> 90.8
# searches/s). The price is in its pauses (gc.log in the server's log directory, 2 GB heap):
# under search load young collections of ~8 ms (median; 22 at most) and a full one of ~190 ms
# about every 90 s (6,000 searches: 61 and 1); while 100k episodes were written, a full one of
# 200-230 ms about every 40 s.
JVM_FLAGS = [
    "-XX:+UseParallelGC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "--add-modules=jdk.incubator.vector",
]

Echo = Callable[[str], None]


class Neo4jRuntimeError(RuntimeError):
    """One clear message saying what went wrong and what to do."""


@dataclass(frozen=True)
class Layout:
    base: Path
    instance: str

    @classmethod
    def of(cls, settings: Settings) -> "Layout":
        return cls(Path(settings.home).resolve() / "neo4j", settings.neo4j_instance)

    root = property(lambda self: self.base / self.instance)
    lib = property(lambda self: self.base / "lib")
    conf = property(lambda self: self.root / "conf")
    data = property(lambda self: self.root / "data")
    logs = property(lambda self: self.root / "logs")
    plugins = property(lambda self: self.root / "plugins")
    run = property(lambda self: self.root / "run")
    pid_file = property(lambda self: self.root / "run" / "neo4j.pid")
    marker = property(lambda self: self.base / "lib" / ".complete")
    console_log = property(lambda self: self.root / "logs" / "console.log")


# ---------------------------------------------------------------- Java


def _java_major(java: Path) -> int | None:
    try:
        out = subprocess.run([str(java), "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r'version "(\d+)', out.stderr + out.stdout)
    return int(m.group(1)) if m else None


def find_java(settings: Settings) -> Path:
    """The newest JDK >= 21 we can find: ENGRAM_JAVA_HOME, JAVA_HOME, /usr/lib/jvm/*, PATH."""
    homes: list[Path] = []
    for env in (settings.java_home, os.environ.get("JAVA_HOME", "")):
        if env:
            homes.append(Path(env))
    jvm = Path("/usr/lib/jvm")
    if jvm.is_dir():
        homes.extend(sorted(p for p in jvm.iterdir() if p.is_dir() and not p.is_symlink()))
    candidates = [h / "bin" / "java" for h in homes]
    on_path = shutil.which("java")
    if on_path:
        candidates.append(Path(on_path))
    best: tuple[int, Path] | None = None
    for java in candidates:
        if not java.exists():
            continue
        major = _java_major(java)
        if major is None or major < MIN_JAVA:
            continue
        if settings.java_home and java.parent.parent == Path(settings.java_home):
            return java  # an explicit choice wins
        if best is None or major > best[0]:
            best = (major, java)
    if best is None:
        raise Neo4jRuntimeError(
            f"Neo4j {settings.neo4j_version} needs a Java {MIN_JAVA}+ JDK and none was found "
            "(looked at ENGRAM_JAVA_HOME, JAVA_HOME, /usr/lib/jvm and PATH). Install one "
            "(e.g. `apt-get install openjdk-21-jdk-headless` or Temurin 25) or set ENGRAM_JAVA_HOME."
        )
    return best[1]


# ---------------------------------------------------------------- install


def is_installed(settings: Settings) -> bool:
    layout = Layout.of(settings)
    return layout.marker.exists() and layout.marker.read_text().strip() == settings.neo4j_version


def install(settings: Settings, echo: Echo = print) -> bool:
    """Fetch the server's jars and write its config. Returns False when it was already installed."""
    layout = Layout.of(settings)
    java = find_java(settings)
    if is_installed(settings):
        write_config(settings)
        echo(f"Neo4j {settings.neo4j_version} already installed in {layout.base}")
        return False
    mvn = shutil.which("mvn")
    if not mvn:
        raise Neo4jRuntimeError(
            "Maven (`mvn`) is needed to fetch Neo4j from Maven Central: `apt-get install maven`."
        )
    echo(f"Installing Neo4j {settings.neo4j_version} into {layout.base} (Java: {java})")
    layout.base.mkdir(parents=True, exist_ok=True)
    staging = layout.base / "lib.partial"
    shutil.rmtree(staging, ignore_errors=True)
    echo("  resolving the server's jars from Maven Central (first time: ~170 MB)...")
    cmd = [
        mvn, "-B", "-q", "-f", str(POM), "dependency:copy-dependencies",
        f"-DoutputDirectory={staging}", "-DincludeScope=runtime",
        f"-Dneo4j.version={settings.neo4j_version}",
    ]
    env = dict(os.environ, JAVA_HOME=str(java.parent.parent))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise Neo4jRuntimeError(
            "Downloading Neo4j from Maven Central failed; nothing was installed. Check the network "
            f"or ENGRAM_NEO4J_VERSION, then run `engram neo4j install` again.\n{tail}"
        )
    jars = list(staging.glob("*.jar"))
    echo(f"  {len(jars)} jars fetched")
    # Replace lib/ only once the new set is complete, so an interrupted install never leaves a
    # mixed classpath behind; the marker is written last.
    shutil.rmtree(layout.lib, ignore_errors=True)
    staging.rename(layout.lib)
    write_config(settings)
    layout.marker.write_text(settings.neo4j_version + "\n")
    echo(f"  Neo4j {settings.neo4j_version} installed")
    return True


def write_config(settings: Settings) -> Path:
    layout = Layout.of(settings)
    for d in (layout.conf, layout.data, layout.logs, layout.plugins, layout.run, layout.root / "import"):
        d.mkdir(parents=True, exist_ok=True)
    auth = "true" if settings.neo4j_password else "false"
    conf = f"""# Written by `engram neo4j install`; edit ENGRAM_* settings instead of this file.
server.directories.data={layout.data}
server.directories.logs={layout.logs}
server.directories.plugins={layout.plugins}
server.directories.run={layout.run}
server.directories.import={layout.root / 'import'}
server.default_listen_address=127.0.0.1
server.bolt.listen_address=:{settings.neo4j_bolt_port}
server.http.listen_address=:{settings.neo4j_http_port}
server.https.enabled=false
dbms.security.auth_enabled={auth}
dbms.usage_report.enabled=false
server.memory.heap.initial_size={settings.neo4j_heap}
server.memory.heap.max_size={settings.neo4j_heap}
server.memory.pagecache.size={settings.neo4j_pagecache}
# Transaction logs bounded by size: kept by age (1 day), a day of benchmarks filled 29 GB of disk.
db.tx_log.rotation.retention_policy=1G size
# See Settings.neo4j_vector_merge_factor.
internal.dbms.index.vector.standard_merge_factor={settings.neo4j_vector_merge_factor}
# Keep-alive messages only while results stream. With ALL (the default) the server also asks
# drivers to time out reads of a connection silent for 2 minutes, and the Python driver then
# arms a timer and a task for every read of a socket: in process, on asyncio's own loop, ~1 ms
# of CPU per search (11%; under uvloop, which `engram serve` runs, too little to measure over
# HTTP). A search has its own deadline instead (Settings.search_timeout_s).
server.bolt.connection_keep_alive_for_requests=STREAMING
"""
    path = layout.conf / "neo4j.conf"
    path.write_text(conf)
    return path


# ---------------------------------------------------------------- start / stop / status


def _port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def _read_pid(layout: Layout) -> int | None:
    try:
        return int(layout.pid_file.read_text().strip())
    except (OSError, ValueError):
        return None


def _is_our_process(pid: int, layout: Layout) -> bool:
    """True when pid is alive and is the Neo4j we started (not a recycled pid)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False
    return ENTRY_POINT in cmdline and f"--home-dir={layout.root}\x00" in cmdline


def running_pid(settings: Settings) -> int | None:
    layout = Layout.of(settings)
    pid = _read_pid(layout)
    return pid if pid and _is_our_process(pid, layout) else None


def serves(settings: Settings) -> bool:
    """Whether the service talks to this local instance: no URI (the local server is the
    default), or a Bolt URI to this machine on the instance's Bolt port. What the local process
    and its log say is about another server otherwise."""
    if not settings.neo4j_uri:
        return True
    parsed = urlsplit(settings.neo4j_uri)
    return (parsed.scheme in ("bolt", "neo4j") and parsed.hostname in ("127.0.0.1", "localhost", "::1")
            and (parsed.port or 7687) == settings.neo4j_bolt_port)


def serving_pid(settings: Settings) -> int | None:
    """The local server's pid when the service talks to it (serves), else None."""
    return running_pid(settings) if serves(settings) else None


def checkpoints_since(settings: Settings, since: datetime) -> list[str] | None:
    """When the local server's checkpoints of the `neo4j` databases started since `since` (UTC), from
    its debug log: a checkpoint flushes the page cache for seconds, which a benchmark wants to
    know about (Community Edition has no procedure to run one at a chosen moment). None when the
    service talks to another server, whose log is not here."""
    if not serves(settings):
        return None
    path = Layout.of(settings).logs / "debug.log"
    if not path.exists():
        return []
    out = []
    for line in path.read_text(errors="replace").splitlines()[-20000:]:
        if "checkpoint started" not in line or "[neo4j/" not in line:
            continue
        m = re.search(r'(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2})', line)
        if m and datetime.fromisoformat(m.group(1).replace(" ", "T")).replace(tzinfo=timezone.utc) >= since:
            out.append(m.group(1))
    return out


def start(settings: Settings, echo: Echo = print) -> bool:
    """Start the server and wait until Bolt answers. Returns False when it was already running."""
    layout = Layout.of(settings)
    if not is_installed(settings):
        raise Neo4jRuntimeError("Neo4j is not installed here: run `engram neo4j install` first.")
    pid = running_pid(settings)
    if pid:
        _wait_for_bolt(settings, pid)
        echo(f"Neo4j already running (pid {pid}, bolt://127.0.0.1:{settings.neo4j_bolt_port})")
        return False
    for port in (settings.neo4j_bolt_port, settings.neo4j_http_port):
        if _port_open(port):
            raise Neo4jRuntimeError(
                f"Port {port} is already taken by another process. Stop it, or choose other ports "
                "with ENGRAM_NEO4J_BOLT_PORT / ENGRAM_NEO4J_HTTP_PORT (and ENGRAM_NEO4J_URI to match)."
            )
    java = find_java(settings)
    write_config(settings)
    cmd = [
        str(java), f"-Xms{settings.neo4j_heap}", f"-Xmx{settings.neo4j_heap}", *JVM_FLAGS,
        # Every collection and its pause, in the server's log directory (a few rotated files).
        f"-Xlog:gc:file={layout.logs}/gc.log:time,uptime:filecount=3,filesize=10m",
        "-cp", f"{layout.plugins}/*:{layout.lib}/*", ENTRY_POINT,
        f"--home-dir={layout.root}", f"--config-dir={layout.conf}", "--console-mode",
    ]
    layout.logs.mkdir(parents=True, exist_ok=True)
    log = open(layout.console_log, "ab")
    # A new session so that the server outlives the command that started it.
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True, cwd=layout.root)
    log.close()
    layout.run.mkdir(parents=True, exist_ok=True)
    layout.pid_file.write_text(f"{proc.pid}\n")
    echo(f"Starting Neo4j {settings.neo4j_version} (pid {proc.pid})...")
    _wait_for_bolt(settings, proc.pid, proc)
    echo(f"Neo4j is up: bolt://127.0.0.1:{settings.neo4j_bolt_port}, "
         f"Browser http://127.0.0.1:{settings.neo4j_http_port}/browser/")
    return True


def _wait_for_bolt(settings: Settings, pid: int, proc: subprocess.Popen | None = None) -> None:
    layout = Layout.of(settings)
    deadline = time.monotonic() + settings.neo4j_start_timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            layout.pid_file.unlink(missing_ok=True)
            raise Neo4jRuntimeError(
                f"Neo4j exited during start-up (code {proc.returncode}). Last lines of "
                f"{layout.console_log}:\n{_tail(layout.console_log)}"
            )
        if _port_open(settings.neo4j_bolt_port) and _started(layout):
            return
        time.sleep(0.3)
    raise Neo4jRuntimeError(
        f"Neo4j did not answer on Bolt within {settings.neo4j_start_timeout_s:.0f}s; see "
        f"{layout.console_log}:\n{_tail(layout.console_log)}"
    )


def _started(layout: Layout) -> bool:
    # Bolt accepts connections a moment before the default database is online; the server
    # logs "Started." once it is.
    try:
        with open(layout.console_log, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64_000))
            tail = f.read().decode(errors="replace")
    except OSError:
        return False
    last_start = tail.rfind("Starting...")
    return tail.rfind("Started.") > last_start


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def stop(settings: Settings, echo: Echo = print, timeout_s: float = 60.0) -> bool:
    """Stop the server this project started. Returns False when none was running."""
    layout = Layout.of(settings)
    pid = running_pid(settings)
    if not pid:
        layout.pid_file.unlink(missing_ok=True)
        echo("Neo4j is not running (no server started by this project).")
        return False
    echo(f"Stopping Neo4j (pid {pid})...")
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _is_our_process(pid, layout):
        time.sleep(0.2)
    if _is_our_process(pid, layout):
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
    layout.pid_file.unlink(missing_ok=True)
    echo("Neo4j stopped.")
    return True


@dataclass
class Status:
    installed: bool
    running: bool
    pid: int | None
    version: str
    bolt_url: str
    browser_url: str
    home: Path


def status(settings: Settings) -> Status:
    layout = Layout.of(settings)
    pid = running_pid(settings)
    return Status(
        installed=is_installed(settings),
        running=pid is not None,
        pid=pid,
        version=settings.neo4j_version,
        bolt_url=f"bolt://127.0.0.1:{settings.neo4j_bolt_port}",
        browser_url=f"http://127.0.0.1:{settings.neo4j_http_port}/browser/",
        home=layout.root,
    )


def ensure_running(settings: Settings, echo: Echo = print) -> None:
    install(settings, echo)
    start(settings, echo)
