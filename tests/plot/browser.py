#!/usr/bin/python3
"""browser.py: opens an HTML page in headless Chromium and checks it as a
reader would see it, through the DevTools protocol over a pipe (no port,
no network, standard library only).

Usage: browser.py CHROMIUM PAGE.html SHOTDIR
For a phone (390 x 844, touch) and a wide screen (1600 x 1000) it checks
that the page loads, that every <img> loaded and has a size, that the
page is no wider than the screen, that the console got no error and no
script failed, and it saves a screenshot of the whole page, which must
not be blank (one colour, or next to it). Prints one line per check;
exit 0 when all passed, 1 when one failed, 77 when Chromium cannot start
(with the reason).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import base64
import fcntl
import select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pngcheck  # noqa: E402

TIMEOUT = 60.0


class Browser:
    def __init__(self, chromium, profile):
        # fd 3: we write commands; fd 4: Chromium writes answers.
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        os.set_inheritable(to_r, True)
        os.set_inheritable(from_w, True)
        # Nothing from the network: no QUIC, no background fetches, no
        # component updates, no sync; a new empty profile for each run.
        args = [chromium, "--headless", "--remote-debugging-pipe", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--mute-audio",
                "--user-data-dir=" + profile, "about:blank"]
        self.err = tempfile.TemporaryFile()

        def fds():
            # Out of the way first: either end may be 3 or 4 already.
            r, w = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=self.err)
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def stderr_tail(self):
        self.err.seek(0)
        lines = self.err.read().decode(errors="replace").strip().splitlines()
        return " / ".join(lines[-3:]) if lines else "no message"

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from Chromium")
            r, _, _ = select.select([self.from_r], [], [], 0.5)
            if r:
                chunk = os.read(self.from_r, 65536)
                if not chunk:
                    raise EOFError("Chromium closed its pipe: " + self.stderr_tail())
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        mid = self.next_id
        m = {"id": mid, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        os.write(self.to_w, json.dumps(m).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            msg = self._read_message(deadline)
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, session, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method and e.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


PROBE = """(() => {
  const imgs = Array.from(document.images);
  return JSON.stringify({
    images: imgs.length,
    broken: imgs.filter(i => !i.complete || i.naturalWidth === 0 || i.naturalHeight === 0)
                .map(i => i.alt.slice(0, 60)),
    zero: imgs.filter(i => i.getBoundingClientRect().width === 0).length,
    page: document.documentElement.scrollWidth,
    view: window.innerWidth,
    height: document.documentElement.scrollHeight,
    text: document.body.innerText.length,
    scripts: document.scripts.length
  });
})()"""


def check_view(b, url, name, width, height, mobile, shotdir):
    failures = []
    target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        b.send(domain + ".enable", session=session)
    b.send("Emulation.setDeviceMetricsOverride",
           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
           session=session)
    if mobile:
        b.send("Emulation.setTouchEmulationEnabled", {"enabled": True}, session=session)
    b.send("Page.navigate", {"url": url}, session=session)
    b.wait_event("Page.loadEventFired", session)
    probe = json.loads(b.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                              session=session)["result"]["value"])
    # What the reader sees first, at half scale: enough to tell a page
    # from a blank one, and quick to check.
    shot = base64.b64decode(b.send("Page.captureScreenshot",
                                   {"format": "png",
                                    "clip": {"x": 0, "y": 0, "width": width, "height": height,
                                             "scale": 0.5}},
                                   session=session)["data"])
    path = os.path.join(shotdir, "screenshot-%s.png" % name)
    with open(path, "wb") as f:
        f.write(shot)
    # Console errors and script failures, whenever they came.
    for e in b.events:
        if e.get("sessionId") != session:
            continue
        p = e.get("params", {})
        if e.get("method") == "Runtime.exceptionThrown":
            failures.append("script error: %s" % p.get("exceptionDetails", {}).get("text"))
        elif e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            failures.append("console.%s: %s" % (p["type"], p.get("args")))
        elif e.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            failures.append("console error: %s" % p["entry"].get("text"))
    if not probe["images"]:
        failures.append("no images on the page")
    if probe["broken"]:
        failures.append("%d images did not load: %s" % (len(probe["broken"]), probe["broken"]))
    if probe["zero"]:
        failures.append("%d images have no width" % probe["zero"])
    if probe["page"] > probe["view"]:
        failures.append("the page is %d px wide on a %d px screen" % (probe["page"], probe["view"]))
    w, h, colours, share = pngcheck.summary(shot)
    if colours < 16 or share > 0.995:
        failures.append("the screenshot is blank: %d colours, the commonest on %.1f%%"
                        % (colours, 100 * share))
    print("%s %dx%d: %d images loaded, page %d px wide, screenshot %dx%d with %d colours "
          "(commonest %.0f%%) in %s"
          % (name, width, height, probe["images"], probe["page"], w, h, colours, 100 * share,
             path))
    b.send("Target.closeTarget", {"targetId": target})
    b.events = [e for e in b.events if e.get("sessionId") != session]
    return failures


def main():
    chromium, page, shotdir = sys.argv[1:4]
    url = "file://" + os.path.abspath(page)
    with tempfile.TemporaryDirectory(prefix="pfsbench-chromium.") as profile:
        b = Browser(chromium, profile)
        try:
            b.send("Browser.getVersion")
        except Exception as e:
            b.close()
            print("SKIP: Chromium cannot start here: %s" % e)
            return 77
        failures = []
        try:
            failures += check_view(b, url, "phone", 390, 844, True, shotdir)
            failures += check_view(b, url, "wide", 1600, 1000, False, shotdir)
        finally:
            b.close()
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
