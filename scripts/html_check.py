#!/usr/bin/env python3
"""Opens Picollo's HTML reports in headless Chromium and checks what a reader gets.

    html_check.py --out DIR [--text-only] PAGE EXPECTED [PAGE EXPECTED ...]

Per page: html5lib's strict parse accepts it; Chromium (driven over the DevTools protocol on
a pipe, standard library only) loads it from disk with no console error, no exception and no
request but the page itself; EXPECTED (the verdict line the command printed, say) is in the
rendered text; every figure has an SVG with content, an accessible title and a caption, and
lies inside the page's width (--text-only: pages of text, the CI summaries rendered from
Markdown, need no figure). It writes DIR/NAME.png (light), DIR/NAME-dark.png and
DIR/NAME.pdf (the printed page), and prints each page's size and load time.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

import html5lib

CHROMIUM = os.environ.get("PICOLLO_CHROMIUM", "chromium")
WIDTH = 1100

# Run in the page: what the checks need from the rendered document.
PROBE = r"""
(() => {
  const width = document.documentElement.clientWidth;
  const figures = [...document.querySelectorAll('figure')].map(f => {
    const svg = f.querySelector('svg');
    const r = svg ? svg.getBoundingClientRect() : null;
    return {
      svg: !!svg,
      shapes: svg ? svg.querySelectorAll('path,polyline,rect,line,circle').length : 0,
      title: svg && svg.querySelector('title') ? svg.querySelector('title').textContent : '',
      caption: f.querySelector('figcaption') ? f.querySelector('figcaption').textContent : '',
      left: r ? r.left : -1, right: r ? r.right : -1, w: r ? r.width : 0, h: r ? r.height : 0,
    };
  });
  return JSON.stringify({
    text: document.body.innerText,
    width, height: document.documentElement.scrollHeight,
    svgs: document.querySelectorAll('svg').length,
    figures,
  });
})()
"""


class Browser:
    """Chromium with --remote-debugging-pipe: commands on fd 3, replies and events on fd 4,
    each a JSON text ended by a NUL byte."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="picollo-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # The child's fd 3 reads our commands, its fd 4 writes replies.
        def child_fds():
            # Through fds out of the way (either end may be 3 or 4 already), then onto 3
            # and 4, inheritable (os.pipe's ends close on exec).
            r, w = os.dup2(to_chrome_r, 100), os.dup2(from_chrome_w, 101)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
             "--disable-background-networking", "--disable-component-update",
             "--disable-default-apps", "--disable-sync", "about:blank"],
            # close_fds would close 3 and 4 after preexec_fn set them.
            preexec_fn=child_fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=30.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read())
        raise RuntimeError(f"no {method} within {timeout} s")

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        self.proc.wait(timeout=30)


def problems_in(events, page_url):
    """Console errors, exceptions and requests other than the page itself."""
    found = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            found.append(f"console {p['type']}: {p.get('args')}")
        elif m == "Runtime.exceptionThrown":
            found.append(f"exception: {p.get('exceptionDetails', {}).get('text')}")
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            found.append(f"log error: {p['entry'].get('text')} ({p['entry'].get('url', '')})")
        elif m == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            if url != page_url:
                found.append(f"request: {url}")
    return found


# --text-only: the pages are text (the CI summaries): no figure is expected.
TEXT_ONLY = False


def check_figures(probe, name):
    failures = []
    if probe["svgs"] == 0 and "Nothing to draw" not in probe["text"] and not TEXT_ONLY:
        failures.append("no figure at all")
    for k, f in enumerate(probe["figures"], 1):
        what = f"{name}: figure {k} ({f['title'][:60]!r})"
        if not f["svg"] or f["shapes"] < 3:
            failures.append(f"{what}: an empty figure")
        if not f["title"] or not f["caption"].strip():
            failures.append(f"{what}: no title or no caption")
        if f["w"] <= 0 or f["h"] <= 0:
            failures.append(f"{what}: drawn {f['w']}x{f['h']}")
        if f["left"] < 0 or f["right"] > probe["width"] + 0.5:
            failures.append(f"{what}: outside the page width ({f['left']:.0f}..{f['right']:.0f} of {probe['width']})")
    return failures


def screenshot(browser, session, path, height):
    browser.call("Emulation.setDeviceMetricsOverride", session, width=WIDTH,
                 height=min(height, 16000), deviceScaleFactor=1, mobile=False)
    shot = browser.call("Page.captureScreenshot", session, format="png")
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def check_page(browser, path, expected, out_dir):
    name = os.path.splitext(os.path.basename(path))[0]
    text = open(path, encoding="utf-8").read()
    try:
        html5lib.HTMLParser(strict=True).parse(text)
    except Exception as e:  # html5lib raises ParseError with the position
        return [f"{name}: html5lib strict parse: {e}"], None
    target = browser.call("Target.createTarget", url="about:blank")["targetId"]
    session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for domain in ("Runtime", "Log", "Network", "Page"):
        browser.call(f"{domain}.enable", session)
    browser.call("Emulation.setDeviceMetricsOverride", session, width=WIDTH, height=900,
                 deviceScaleFactor=1, mobile=False)
    url = "file://" + os.path.abspath(path)
    start = time.monotonic()
    browser.call("Page.navigate", session, url=url)
    browser.wait_for("Page.loadEventFired")
    loaded = time.monotonic() - start
    probe = json.loads(browser.call("Runtime.evaluate", session, expression=PROBE,
                                    returnByValue=True)["result"]["value"])
    failures = [f"{name}: {p}" for p in problems_in(browser.events, url)]
    browser.events.clear()
    if expected not in probe["text"]:
        failures.append(f"{name}: {expected!r} is not in the rendered text")
    failures += check_figures(probe, name)
    screenshot(browser, session, os.path.join(out_dir, f"{name}.png"), probe["height"])
    browser.call("Emulation.setEmulatedMedia", session,
                 features=[{"name": "prefers-color-scheme", "value": "dark"}])
    screenshot(browser, session, os.path.join(out_dir, f"{name}-dark.png"), probe["height"])
    pdf = browser.call("Page.printToPDF", session)["data"]
    with open(os.path.join(out_dir, f"{name}.pdf"), "wb") as f:
        f.write(base64.b64decode(pdf))
    browser.call("Target.closeTarget", targetId=target)
    return failures, (len(text.encode()), loaded, probe["svgs"])


def main(argv):
    global TEXT_ONLY
    if len(argv) > 3 and argv[3] == "--text-only":
        TEXT_ONLY, argv = True, argv[:3] + argv[4:]
    if len(argv) < 4 or argv[1] != "--out" or len(argv[3:]) % 2:
        sys.exit(__doc__)
    out_dir, pairs = argv[2], argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    browser = Browser()
    failures = []
    try:
        for path, expected in zip(pairs[::2], pairs[1::2]):
            found, figures = check_page(browser, path, expected, out_dir)
            failures += found
            if figures:
                size, loaded, svgs = figures
                print(f"html-check: {path}: {size:,} bytes, {svgs} figures, loaded and drawn "
                      f"in {loaded * 1000:.0f} ms; {'ok' if not found else 'FAILED'}")
    finally:
        browser.close()
    for f in failures:
        print(f"html-check: FAILED {f}")
    if failures:
        sys.exit(1)
    print(f"html-check: screenshots (light, dark) and printed PDFs in {out_dir}")


if __name__ == "__main__":
    main(sys.argv)
