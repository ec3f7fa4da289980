"""Debian's Chromium, headless, for the tests that look at a page or a board as a browser draws it: where
it is, the flags every run uses, the skip where it is not installed, and a page driven over the DevTools
protocol (``Browser``). The test modules import it (``from chromium import Browser``); the ``browser``
fixture (tests/conftest.py) is one Browser for a whole test module."""
from __future__ import annotations

import base64
import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]


def need_chromium(checked: str = "the page") -> None:
    """Skip the test where Chromium is not installed, saying what is then not checked in a browser."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium): {checked} is not checked in a browser")


class Browser:
    """A headless Chromium driven over --remote-debugging-pipe (the DevTools
    protocol, messages ending in NUL on file descriptors 3 and 4)."""

    def __init__(self, profile: Path, width: int = 1280, height: int = 900):
        commands_read, self._write = os.pipe()
        self._read, replies_write = os.pipe()

        def child_fds():  # runs in the child before exec: our pipes become fds 3 and 4
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe",
             f"--window-size={width},{height}", "about:blank"],
            pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.messages: queue.Queue = queue.Queue()
        self.events: list[dict] = []
        self._next = 0
        threading.Thread(target=self._reader, daemon=True).start()
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable", session=True)

    def _reader(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                self.messages.put(json.loads(message))

    def call(self, method: str, session: bool = False, timeout: float = 20, **params):
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self.messages.get(timeout=max(0.1, deadline - time.monotonic()))
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 20) -> dict:
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self.messages.get(timeout=max(0.1, deadline - time.monotonic()))
            self.events.append(event)
            if event.get("method") == method:
                return event

    def open(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        self.wait_for("Page.loadEventFired")

    def js(self, expression: str, wait: bool = False):
        """The value of a JavaScript expression; with wait, of the promise it gives, once settled."""
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                           awaitPromise=wait)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)

    def click_row(self, step: int) -> None:
        # A key's selection brings its row back into view for a few animation frames (view.js, select):
        # those frames are let pass before the row is scrolled to, and the row's place is read once the
        # scroll has been laid out, so the click lands on the row a user would see there.
        settle = "new Promise(function(done){var n=0;(function f(){if(++n>10)done();else requestAnimationFrame(f);})();})"
        self.js(settle, wait=True)
        self.js(f"document.getElementById('s{step}').scrollIntoView({{block:'center'}})")
        self.js(settle, wait=True)
        x, y = self.js(f"(function(){{var b=document.getElementById('s{step}').getBoundingClientRect();"
                       f"return [b.x+b.width/2,b.y+b.height/2];}})()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.call("Page.captureScreenshot", session=True, format="png")["data"])
        path.write_bytes(data)
        return data

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._write)
