"""``cthulhu-sim serve``: the workbench on a local address, until Ctrl-C."""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import jinja2  # noqa: F401
import starlette  # noqa: F401
import uvicorn  # noqa: F401 - missing web packages are named when serve starts


class ServeError(RuntimeError):
    """The server cannot start as asked (the address is taken, the folder unusable)."""


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one), or ServeError."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServeError(f"--host {host}: not an address of this machine ({exc.strerror})") \
            from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        raise ServeError(f"--port {port}: cannot listen on {host}:{port} "
                         f"({exc.strerror or exc}); give another port (or --port 0 for a "
                         "free one)") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(port: int = 8765, host: str = "127.0.0.1", results: str | Path = "reports",
          open_browser: bool = False, slots: int = 1, cli: Any = None) -> None:
    """Serve the workbench over the results folder ``results`` until interrupted; ``cli``:
    the command line whose parser checks the forms (``experiments.cli``)."""
    from experiments.workbench.app import create_app

    root = Path(results)
    if root.exists() and not root.is_dir():
        raise ServeError(f"--results {root}: is a file, not a folder")
    try:
        app = create_app(root, slots, cli)
    except OSError as exc:
        raise ServeError(f"--results {root}: cannot be made ({exc.strerror or exc})") from None
    sock = listen(host, port)
    url = address(sock)
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    print(f"cthulhu-sim workbench on {url} (results in {root.resolve()}); Ctrl-C stops it",
          flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"note: --host {host} lets other machines reach the workbench", file=sys.stderr,
              flush=True)
    if open_browser:
        def opener() -> None:
            import webbrowser

            while not server.started:
                time.sleep(0.05)
            webbrowser.open(url)

        threading.Thread(target=opener, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down, then passes the Ctrl-C on: done
        pass
    finally:
        app.state.wb.queue.stop()
        sock.close()
    print("stopped", flush=True)
