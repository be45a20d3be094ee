"""Load a notebook under Voilà N times in headless Chromium, optionally with the CPU kept busy, and count the loads
whose page shows a widget error ("Error displaying widget: model not found", "Error displaying widget", ...).

The reproduction of issue 27 (one load in five of ``dairyman_walkthrough`` on a busy machine showed
"Error displaying widget: model not found" instead of the policy explorer)::

    nice -n 5 env PYTHONPATH=$PWD /work/main/.venv/bin/python benchmarks/voila_loads.py \
        rush.ipynb --loads 6 --burners 4 --out benchmarks/runs/voila-loads.json

``--burners K`` starts K busy Python processes (a loop, nothing else) for the whole run. ``--trace`` prints, per load,
every console message, the kernel messages on the page's websocket (comm_open, request_states, update_states with
its count of states, ...) and what the page's widget manager does (caught as it is built: its restore from the kernel,
each lookup of a model it does not hold yet, "known at call", "now", and whether it had restored). ``--stall S``
keeps the page busy S seconds once the first output that waited for its model gets it, ``--throttle R`` slows the
page's CPU R times (Chrome's CPU throttling); ``--voila-arg`` passes an argument to Voilà (e.g. ``--debug``).
Each load prints one line: the seconds to the notebook run and to the widgets drawn, the errors found, the notebook
cells showing them, the browser console's errors (with ``--console`` also its warnings). The last line is a summary.
Each load's kernel is shut down as the browser test does (``SHUTDOWN_KERNEL``).

What it found (2026-12-06, README "Voilà works too", benchmarks/JOURNAL.md "Voilà pages"): with jupyterlab_widgets
3.0.17 the manager's lookup of a model polls for two seconds; Voilà asks before the manager has restored the kernel's
models, and a page too busy to poll again before the two seconds are up gives up on a model registered meanwhile,
the manager by then restored: "model not found", for good.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_browser import CHROMIUM, CHROMIUM_ARGS, SHUTDOWN_KERNEL, _free_port  # noqa: E402

ERRORS = ["model not found", "Error displaying widget", "Failed to initialize model", "Traceback (most recent call last)"]
WATCH_MANAGER = """((stall) => {
  // Catches the widget manager as it is built (its constructor sets this._models) and logs what happens to its models.
  const t = () => (performance.now() / 1000).toFixed(2) + 's';
  const log = (...a) => console.log('[wm]', t(), ...a);
  Object.defineProperty(Object.prototype, '_models', {configurable: true, set(value) {
    if (this.comm_target_name !== 'jupyter.widget') {
      Object.defineProperty(this, '_models', {value, writable: true, configurable: true, enumerable: true});
      return;
    }
    const manager = this;
    window.__wm = manager;
    log('manager built', manager.constructor.name);
    const models = new Proxy(value, {
      set(target, key, v) {
        target[key] = v;
        return true;
      },
      deleteProperty(target, key) { log('model deleted', key, new Error().stack.split('\\n').slice(1, 4).join(' | ')); delete target[key]; return true; },
    });
    Object.defineProperty(this, '_models', {value: models, writable: true, configurable: true, enumerable: true});
    for (const name of ['restoreWidgets', '_loadFromKernel', '_loadFromKernelModels', 'clear_state', 'disconnect', '_handleKernelChanged', '_handleKernelConnectionStatusChange', '_handleKernelStatusChange']) {
      const original = manager[name];
      if (typeof original !== 'function') continue;
      manager[name] = async function (...args) {
        log(name, 'start', JSON.stringify(args).slice(0, 80), 'models', Object.keys(models).length);
        try {
          const result = await original.apply(this, args);
          log(name, 'end; models', Object.keys(models).length, 'restored', manager.restoredStatus);

          return result;
        } catch (error) { log(name, 'threw', String(error)); throw error; }
      };
    }
    const get = manager.get_model;
    manager.get_model = async function (id) {
      const known = id in models;
      if (!known) log('get_model waits', id);
      const found = () => {
        if (known) return;
        log('get_model found', id);
        if (stall > 0 && !window.__wmStalled) {
          // The first output that waited for its model draws it: the page busy for `stall` seconds, as drawing a big
          // view (plotly figures) keeps it on a loaded machine, while the other outputs' waits run out.
          window.__wmStalled = true;
          log('stalling', stall, 's');
          const end = performance.now() + stall * 1000;
          while (performance.now() < end) {}
        }
      };
      try { const model = await get.call(this, id); found(); return model; }
      catch (error) { log('get_model failed', id, 'known at call', known, 'now', id in models, 'restored', manager.restoredStatus, 'models', Object.keys(models).length); throw error; }
    };
  }});
})"""
BURN = "import time\nwhile True: pass\n"


def start_voila(extra: list[str], log: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    command = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               "--MappingKernelManager.cull_idle_timeout=600", "--MappingKernelManager.cull_interval=60",
               "--show_tracebacks=True", *extra]
    out = log.open("w")
    server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "JUPYTER_PLATFORM_DIRS": "1"},
                              stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if server.poll() is not None:
            raise SystemExit(f"voila exited:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/voila/tree", timeout=5):
                return server, url
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("voila did not answer in 90 s")
            time.sleep(0.5)


def _kernel_message(payload: str | bytes) -> dict | None:
    """A kernel websocket frame as a dict (channel, header, parent_header, content): JSON or the v1 binary protocol."""
    try:
        if isinstance(payload, str):
            return json.loads(payload)
        count = int.from_bytes(payload[:8], "little")
        offsets = [int.from_bytes(payload[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
        parts = [payload[offsets[i]:offsets[i + 1]] for i in range(min(count - 1, 5))]
        keys = ["channel", "header", "parent_header", "metadata", "content"]
        return {k: (p.decode() if k == "channel" else json.loads(p)) for k, p in zip(keys, parts)}
    except Exception:  # noqa: BLE001 - not a kernel message
        return None


def _describe(direction: str, payload: str | bytes) -> str | None:
    message = _kernel_message(payload)
    if not message or not isinstance(message.get("header"), dict):
        return None
    kind = message["header"].get("msg_type", "?")
    if kind in ("status", "stream", "execute_input", "shutdown_reply", "kernel_info_request", "kernel_info_reply"):
        return f"{direction} {kind} {message.get('content', {}).get('execution_state', '')}".rstrip()
    content = message.get("content") or {}
    data = content.get("data") or {}
    what = [kind, content.get("target_name") or "", (data.get("method") or "") if isinstance(data, dict) else "",
            (content.get("comm_id") or "")[:8]]
    if kind == "comm_info_reply":
        what.append(f"{len(content.get('comms') or {})} comms")
    if isinstance(data, dict) and data.get("method") == "update_states":
        what.append(f"{len(data.get('states') or {})} states")
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        what.append(",".join(sorted(data["state"]))[:80])
    return f"{direction} " + " ".join(w for w in what if w)


def one_load(browser, url: str, show_console: bool, trace: bool = False, throttle: float = 1, stall: float = 0) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    if throttle > 1:  # the page's main thread slowed down as on a busy machine (Chrome DevTools' CPU throttling)
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    console: list[str] = []
    start = time.monotonic()
    stamp = lambda: f"{time.monotonic() - start:6.2f}s"  # noqa: E731
    page.on("console", lambda m: console.append(f"{m.type}: {stamp()} {m.text}")
            if m.type in ("error", "warning") or trace else None)
    page.on("pageerror", lambda e: console.append(f"pageerror: {stamp()} {e}"))
    if trace:
        def watch(ws):
            console.append(f"ws: {stamp()} open {ws.url[-60:]}")
            for event, direction in (("framesent", ">"), ("framereceived", "<")):
                ws.on(event, lambda payload, d=direction: (line := _describe(d, payload)) and console.append(
                    f"ws: {stamp()} {line}"))
        page.on("websocket", watch)
    if trace or stall:
        page.add_init_script(f"{WATCH_MANAGER}({stall})")
    result: dict = {}
    try:
        page.goto(url, wait_until="domcontentloaded", timeout=300_000)
        page.wait_for_selector("#loading", state="detached", timeout=300_000)
        ran = time.monotonic() - start
        page.wait_for_function("""() => ![...document.querySelectorAll('.jp-OutputArea-output')]
                .some(e => e.innerText.includes('Loading widget'))""", timeout=120_000, polling=200)
        body = page.inner_text("body")
        found = [e for e in ERRORS if e in body]
        cells = page.evaluate("""(errors) => [...document.querySelectorAll('[cell-index]')]
            .filter(e => errors.some(x => e.innerText.includes(x))).map(e => Number(e.getAttribute('cell-index')) - 1)""",
                              ERRORS)
        result = {"ran_s": round(ran, 1), "drawn_s": round(time.monotonic() - start, 1), "errors": found, "cells": cells}
    except Exception as error:  # noqa: BLE001 - a timeout: reported, the run goes on
        result = {"failed": str(error).splitlines()[0][:200]}
    result["console_errors"] = [c.split(" ", 2)[0] + " " + c.split(" ", 2)[-1] for c in console if c.startswith(("error", "pageerror"))]
    if show_console:
        result["console"] = console
    try:
        page.evaluate(SHUTDOWN_KERNEL)
    except Exception:  # noqa: BLE001
        pass
    context.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", nargs="?", default="dairyman_walkthrough.ipynb")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--burners", type=int, default=0, help="busy Python processes kept running meanwhile")
    parser.add_argument("--throttle", type=float, default=1, help="slow the page's CPU down this many times (CDP)")
    parser.add_argument("--stall", type=float, default=0,
                        help="keep the page busy this many seconds once the first output that waited for its model gets it")
    parser.add_argument("--voila-arg", action="append", default=[], help="an extra argument for voila")
    parser.add_argument("--console", action="store_true", help="print the console's errors and warnings")
    parser.add_argument("--trace", action="store_true", help="print every console message and the kernel messages")
    parser.add_argument("--out", help="also write the loads and the summary to this JSON file")
    parser.add_argument("--log", default=str(ROOT / "test-artifacts" / "voila_loads.log"))
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    log = Path(args.log)
    log.parent.mkdir(parents=True, exist_ok=True)
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(args.burners)]
    server, base = start_voila(args.voila_arg, log)
    url = f"{base}/voila/render/notebooks/{urllib.parse.quote(args.notebook)}"
    bad = 0
    results = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for number in range(1, args.loads + 1):
                load = os.getloadavg()[0]
                result = one_load(browser, url, args.console or args.trace, args.trace, args.throttle, args.stall)
                result["load_avg"] = round(load, 2)
                results.append(result)
                bad += bool(result.get("errors") or result.get("failed"))
                console = result.pop("console", None)
                print(f"load {number}: {json.dumps(result)}", flush=True)
                for line in console or []:
                    if "atisf" in line and "version" in line:  # the known "Unsatisfied version" warnings
                        continue
                    print(f"    {line[:400]}", flush=True)
            browser.close()
    finally:
        for burner in burners:
            burner.kill()
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    summary = {"notebook": args.notebook, "loads": args.loads, "burners": args.burners, "throttle": args.throttle,
               "stall": args.stall, "voila_args": args.voila_arg, "with_errors": bad,
               "model_not_found": sum("model not found" in r.get("errors", []) for r in results)}
    print(json.dumps(summary))
    if args.out:
        from importlib.metadata import version

        versions = {name: version(name) for name in ("voila", "ipywidgets", "jupyterlab_widgets", "anywidget")}
        Path(args.out).write_text(json.dumps({"command": sys.argv, "versions": versions, "summary": summary,
                                              "results": results}, indent=1) + "\n")


if __name__ == "__main__":
    main()
