"""The workbench's web application (Starlette, pages rendered on the server with Jinja2).

Pages that read games or files are plain functions, which Starlette runs in its worker
threads, so a page that waits (a game's first import compiles) never holds up the server.
Pages: ``/games`` (every registered game), ``/games/GAME`` (its settings, strategies and the
four actions: run, compare, sweep, one game), ``/jobs/ID`` (a job's progress, then its
result), ``/results`` (what ``cthulhu-sim list`` shows of the results folder, each opening its
report).  Progress is polled with no script: a job's page reloads itself, and the server holds
each reload until the job ends (then at once) or moves on (at most twice a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import mimetypes
import os
import threading
import time
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from experiments.workbench import forms, work
from experiments.workbench.errors import FormError, field_of, message, one_line, user_errors
from experiments.workbench.jobs import JobQueue
from experiments.workbench.paths import SEGMENT, fresh_name, inside, relative

HERE = Path(__file__).parent
ACTIONS = {"run": work.do_run, "compare": work.do_compare, "sweep": work.do_sweep,
           "trace": work.do_trace}
ACTION_WORDS = {"run": "Run", "compare": "Comparison", "sweep": "Sweep", "trace": "One game"}
SAVES = {"run": True, "compare": True, "sweep": True, "trace": False}
WAIT_S = 5.0  # the longest a job's page waits for the job to move on before it is sent
MIN_S = 0.5  # ... and the shortest, unless the job has ended (a quick game's progress would
# otherwise reload the page as fast as the browser can, taking the cores the play needs)
SERVED = {".html", ".md", ".png", ".json", ".csv", ".toml", ".parquet", ".txt"}


class Workbench:
    """The state one server holds: its results folder and its queue of jobs."""

    def __init__(self, results: str | Path, slots: int = 1):
        self.root = Path(results).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.queue = JobQueue(slots)
        self.cores = os.cpu_count() or 1
        self._names: set[str] = set()
        self._lock = threading.Lock()
        self._charts: dict[str, bytes] = {}

    def new_folder(self, kind: str, game: str, wanted: str) -> str:
        with self._lock:
            name = fresh_name(self.root, kind, game, wanted)
            while name in self._names:
                if wanted:
                    raise FormError(f"save_as {wanted!r}: already taken by a job in line; give "
                                    "another name", "save_as")
                name = fresh_name(self.root, kind, game, f"{name}-b")
            self._names.add(name)
            return name


templates = Jinja2Templates(directory=str(HERE / "templates"))


def _rate(x: Any, ci: Any = None) -> str:
    """A rate with its 95% interval as every rate of the CLI's reports is written
    (:func:`experiments.stats.rate_text`, which ``fmt_rate`` uses): ``41.4% [37.2, 45.8]``."""
    from experiments.stats import rate_text

    try:
        rate = float(x)
    except (TypeError, ValueError):
        return "?"
    try:
        lo, hi = float(ci[0]), float(ci[1])  # type: ignore[index]
    except (TypeError, ValueError, IndexError, KeyError):
        lo = hi = None  # (no interval: the rate alone)
    return rate_text(rate, lo, hi)


def _pts(x: Any, digits: int = 2) -> str:
    try:
        return f"{100 * float(x):+.{digits}f}"
    except (TypeError, ValueError):
        return "?"


templates.env.filters["rate"] = _rate
templates.env.filters["pts"] = _pts
templates.env.filters["thousands"] = lambda n: f"{n:,}" if isinstance(n, int) else str(n)


def _render(request: Request, name: str, status: int = 200, **context: Any) -> Response:
    wb: Workbench = request.app.state.wb
    context.setdefault("busy", len(wb.queue.busy()))
    return templates.TemplateResponse(request, name, context, status_code=status)


def _game_or_404(name: str) -> str:
    from simcore.registry import game_names

    if name not in game_names():
        raise HTTPException(404, f"unknown game {name!r}; known games: {', '.join(game_names())}")
    return name


# ---- pages ----------------------------------------------------------------------------
async def home(request: Request) -> Response:
    return RedirectResponse("/games", 303)


def games_page(request: Request) -> Response:
    from simcore.registry import game_names

    rows = [forms.game_row(n) for n in game_names()]
    return _render(request, "games.html", rows=rows)


def _game_context(wb: Workbench, game: str, values: dict[str, str] | None = None,
                  errors: dict[str, str] | None = None) -> dict[str, Any]:
    from experiments.analysis.catalog import list_folders
    from simcore.registry import get_game

    g = get_game(game)
    saved = [relative(wb.root, Path(r["path"])) for r in list_folders(wb.root)
             if r["kind"] == "run" and r["game"] == game]
    return {"game": forms.game_row(game), "groups": forms.setting_groups(game),
            "strategies": forms.strategies_of(game), "seats": forms.seat_names(game),
            "player_files": list(forms.player_files(game, wb.root).values()),
            "entrant_example": forms.entrant_example(game),
            "default_strategy": g.default_strategy, "values": values or {},
            "errors": errors or {}, "saved_runs": saved,
            "numeric_keys": [s.key for grp in forms.setting_groups(game) for s in grp.settings
                             if s.numeric]}


def game_page(request: Request) -> Response:
    game = _game_or_404(request.path_params["game"])
    return _render(request, "game.html", **_game_context(request.app.state.wb, game))


async def submit(request: Request) -> Response:
    wb: Workbench = request.app.state.wb
    game = _game_or_404(request.path_params["game"])
    action = request.path_params["action"]
    if action not in ACTIONS:
        raise HTTPException(404, f"no such action {action!r}; one of {', '.join(ACTIONS)}")
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    def check():
        ask = forms.parse_form(game, form, action, wb.root)
        folder = wb.new_folder(action, game, ask.save_as) if SAVES[action] else ""
        if action == "sweep":
            forms.check_sweep(ask, wb.root, folder)
        if action == "compare" and ask.compare_with:
            work.check_saved(wb.root, ask.compare_with, game)
        return ask, folder

    try:  # (in a worker thread: a game's first import may compile for a while)
        ask, folder = await run_in_threadpool(check)
    except user_errors() as exc:
        where = field_of(exc)
        errors = {where or "_form": message(exc) if isinstance(exc, FormError)
                  else one_line(exc)}
        context = await run_in_threadpool(_game_context, wb, game, values, errors)
        return _render(request, "game.html", 400, **context)
    fn = ACTIONS[action]
    title = f"{ACTION_WORDS[action]}: {game}"
    job = wb.queue.submit(action, game, title,
                          lambda j, ask=ask, folder=folder: fn(j, ask, wb.root, folder),
                          form=values, folder=folder)
    return RedirectResponse(f"/jobs/{job.id}", 303)


def _job_or_404(request: Request):
    job = request.app.state.wb.queue.get(request.path_params["job"])
    if job is None:
        raise HTTPException(404, "no such job (the server keeps the last 200; its results, if "
                                 "any, are under Results)")
    return job


async def job_page(request: Request) -> Response:
    wb: Workbench = request.app.state.wb
    job = _job_or_404(request)
    seen = request.query_params.get("seen", "")
    if seen.isdigit():  # hold the reload: until the job ends (at once), or moves on (at most
        t0 = time.monotonic()  # twice a second), or WAIT_S passes
        while not job.finished_state:
            waited = time.monotonic() - t0
            if waited >= WAIT_S or (job.version != int(seen) and waited >= MIN_S):
                break
            await asyncio.sleep(0.02)
    return _render(request, "job.html", job=job, position=wb.queue.position(job),
                   slots=wb.queue.slots, cores=wb.cores, result=job.result)


async def job_cancel(request: Request) -> Response:
    job = _job_or_404(request)
    request.app.state.wb.queue.cancel(job)
    return RedirectResponse(f"/jobs/{job.id}", 303)


def job_chart(request: Request) -> Response:
    job = _job_or_404(request)
    if not (job.result and job.result.get("summary") and job.result.get("kind") == "run"):
        raise HTTPException(404, "this job has no run chart")
    return Response(_chart_bytes(request.app.state.wb, f"job:{job.id}", job.result["summary"]),
                    media_type="image/png")


def _chart_bytes(wb: Workbench, key: str, summary: dict) -> bytes:
    if key not in wb._charts:
        wb._charts[key] = work.summary_chart(summary)
    return wb._charts[key]


def jobs_page(request: Request) -> Response:
    wb: Workbench = request.app.state.wb
    jobs = sorted(wb.queue.jobs.values(), key=lambda j: -int(j.id))
    return _render(request, "jobs.html", jobs=jobs)


def results_page(request: Request) -> Response:
    from experiments.analysis.catalog import list_folders
    from experiments.storage.outdir import KIND_WORDS

    wb: Workbench = request.app.state.wb
    rows = []
    for r in list_folders(wb.root):
        rel = relative(wb.root, Path(r["path"]))
        rows.append({**r, "rel": rel or ".", "kind_words": KIND_WORDS[r["kind"]].split(" ", 1)[1],
                     "report": "report.html" if (Path(r["path"]) / "report.html").is_file()
                     else ""})
    return _render(request, "results.html", rows=rows, root=str(wb.root))


def _refused(exc: FormError) -> Response:
    raise HTTPException(400, str(exc))


def result_item(request: Request) -> Response:
    """A folder of the results (its report) or one of its files; nothing outside it."""
    import json

    from experiments.storage.outdir import KIND_WORDS, folder_kind, read_manifest

    wb: Workbench = request.app.state.wb
    rel = request.path_params["path"].rstrip("/")
    try:
        path = inside(wb.root, rel)
    except FormError as exc:
        return _refused(exc)
    if path.is_file():
        if path.suffix not in SERVED or folder_kind(path.parent) is None:
            raise HTTPException(403, f"{rel}: not a file of a cthulhu-sim results folder")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix in (".md", ".toml", ".csv"):
            kind = "text/plain; charset=utf-8"
        return FileResponse(path, media_type=kind)
    kind = folder_kind(path) if path.is_dir() else None
    if kind is None:
        raise HTTPException(404, f"{rel}: no results folder of cthulhu-sim there")
    manifest = read_manifest(path) or {}
    summary, text = None, ""
    if kind in ("run", "pool"):
        from experiments.running.runner import format_summary

        try:
            summary = json.loads((path / "summary.json").read_text(encoding="utf-8"))
            text = format_summary(summary)
        except (OSError, ValueError, KeyError) as exc:
            text = f"summary.json cannot be read: {one_line(exc)}"
            summary = None
    files = sorted(p.name for p in path.iterdir() if p.is_file() and SEGMENT.match(p.name)
                   and p.suffix in SERVED)
    return _render(request, "folder.html", rel=relative(wb.root, path), kind=kind,
                   kind_words=KIND_WORDS[kind], manifest=manifest, summary=summary, text=text,
                   files=files, charts=work.charts_of(path),
                   report="report.html" if "report.html" in files else "")


def result_chart(request: Request) -> Response:
    import json

    wb: Workbench = request.app.state.wb
    rel = request.path_params["path"].rstrip("/")
    try:
        path = inside(wb.root, rel)
    except FormError as exc:
        return _refused(exc)
    try:
        summary = json.loads((path / "summary.json").read_text(encoding="utf-8"))
        key = f"{path}:{(path / 'summary.json').stat().st_mtime_ns}"
    except (OSError, ValueError):
        raise HTTPException(404, f"{rel}: no run summary there") from None
    return Response(_chart_bytes(wb, key, summary), media_type="image/png")


async def http_error(request: Request, exc: HTTPException) -> Response:
    return _render(request, "error.html", exc.status_code, code=exc.status_code,
                   detail=exc.detail)


async def server_error(request: Request, exc: Exception) -> Response:
    return _render(request, "error.html", 500, code=500, detail=one_line(exc))


class SameOrigin:
    """Refuse a form posted from another site's page (a browser names the page's origin): a
    page elsewhere on the web must not start jobs on this machine."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            origin, host = headers.get("origin"), headers.get("host", "")
            if origin and origin != "null" and origin.split("://", 1)[-1] != host:
                response = Response(f"refused: a form from {origin} (only this workbench's own "
                                    "pages may post here)", 403, media_type="text/plain")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(results: str | Path = "reports", slots: int = 1, cli: Any = None) -> Starlette:
    """The application over the results folder ``results`` (made when missing); ``cli``: the
    command line (``experiments.cli``) whose parser checks the forms."""
    import strategies  # noqa: F401 - games find their strategies through it

    if cli is not None:
        forms.use_cli(cli)
    forms.the_cli()  # (refused now, not at the first form)

    wb = Workbench(results, slots)
    routes = [
        Route("/", home),
        Route("/games", games_page),
        Route("/games/{game}", game_page),
        Route("/games/{game}/{action}", submit, methods=["POST"]),
        Route("/jobs", jobs_page),
        Route("/jobs/{job}", job_page),
        Route("/jobs/{job}/cancel", job_cancel, methods=["POST"]),
        Route("/jobs/{job}/chart.png", job_chart),
        Route("/results", results_page),
        Route("/run-chart/{path:path}", result_chart),
        Route("/results/{path:path}", result_item),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        wb.queue.stop()  # a server stopping cancels its jobs (each stops at its next report)

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error,
                                                       Exception: server_error},
                    lifespan=lifespan, middleware=[Middleware(SameOrigin)])
    app.state.wb = wb
    return app
