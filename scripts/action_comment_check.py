#!/usr/bin/env python3
"""The action's helpers on canned input, and its pull-request comment against a fake API.

1. The comment's body (the marker first, a long summary cut with its <details> closed), the
   bench executable found in cargo's JSON messages, a suite's slower benchmarks named
   without ` (head)`.
2. The comment's find-or-update against a fake REST API (a local HTTP server): a pull request
   without the marker gets a POST, one whose marked comment is on the second page a PATCH of
   that comment; no token, or no pull request, calls nothing and says why. (A refused call, a
   fork's 403, is checked through the action by scripts/action_suite_check.py, which runs
   these checks too.)

    python3 scripts/action_comment_check.py     (exits 1 on a failed check)
"""
from __future__ import annotations

import http.server
import json
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "action"))
import cargo_bench  # noqa: E402
import comment  # noqa: E402
import outcome  # noqa: E402

failures: list[str] = []


def check(ok: bool, what: str) -> None:
    print(f"action: {'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        failures.append(what)


def check_helpers() -> None:
    marker = "<!-- picollo-suite: benchmark -->"
    short = comment.body(marker, "### Picollo: 2 comparisons\n")
    check(short.startswith(marker + "\n### Picollo"), "the comment: the marker, then the summary")
    long = "### head\n<details>\n" + "| row |\n" * 20_000
    cut = comment.body(marker, long)
    check(len(cut) < 65_536 and cut.count("<details>") == cut.count("</details>")
          and "longer than a comment" in cut, f"a long summary is cut to {len(cut)} characters")
    messages = "\n".join(json.dumps(m) for m in [
        {"reason": "compiler-artifact", "target": {"name": "picollo-bench", "kind": ["lib"]},
         "executable": None},
        {"reason": "build-script-executed"},
        {"reason": "compiler-artifact", "target": {"name": "other", "kind": ["bench"]},
         "executable": "/t/release/deps/other-1"},
        {"reason": "compiler-artifact", "target": {"name": "sums", "kind": ["bench"]},
         "executable": "/t/release/deps/sums-2", "fresh": False},
        {"reason": "build-finished", "success": True}]) + "\nnot json\n"
    check(cargo_bench.executable(messages, "sums") == "/t/release/deps/sums-2"
          and cargo_bench.executable(messages, "nosuch") is None,
          "cargo's messages: the bench target's executable, none for another name")
    doc = {"comparisons": [{"b": "spin (head)", "verdict": "slower"},
                           {"b": "sum (head)", "verdict": "no difference"}]}
    check(outcome.outcome(doc, suite=True) == ["slower", "spin"]
          and outcome.outcome(doc) == ["slower", "spin (head)"],
          "a suite's slower benchmark is named without (head)")


class FakeApi:
    """GitHub's issue-comment endpoints on a local port: comments kept in a list, every
    request recorded; `refuse` answers every call 403."""

    def __init__(self) -> None:
        self.comments: list[dict] = []
        self.calls: list[tuple[str, str]] = []
        self.refuse = False
        api = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def reply(self, code: int, data) -> None:
                text = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def handle_call(self, method: str) -> None:
                api.calls.append((method, self.path))
                if api.refuse or self.headers.get("Authorization") != "Bearer t0ken":
                    return self.reply(403, {"message": "Resource not accessible by integration"})
                size = int(self.headers.get("Content-Length") or 0)
                sent = json.loads(self.rfile.read(size)) if size else None
                path, _, query = self.path.partition("?")
                if method == "GET" and path == "/repos/o/r/issues/7/comments":
                    page = int(dict(q.split("=") for q in query.split("&"))["page"])
                    return self.reply(200, api.comments[(page - 1) * 100:page * 100])
                if method == "POST" and path == "/repos/o/r/issues/7/comments":
                    api.comments.append({"id": 1000 + len(api.comments), "body": sent["body"]})
                    return self.reply(201, api.comments[-1])
                if method == "PATCH" and path.startswith("/repos/o/r/issues/comments/"):
                    number = int(path.rsplit("/", 1)[1])
                    for c in api.comments:
                        if c["id"] == number:
                            c["body"] = sent["body"]
                            return self.reply(200, c)
                return self.reply(404, {"message": "Not Found"})

            def do_GET(self) -> None:
                self.handle_call("GET")

            def do_POST(self) -> None:
                self.handle_call("POST")

            def do_PATCH(self) -> None:
                self.handle_call("PATCH")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def env(self, scratch: Path) -> dict[str, str]:
        """The Actions variables of pull request #7 of o/r, with this API."""
        event = scratch / "event.json"
        event.write_text(json.dumps({"pull_request": {"number": 7}}))
        return {"GITHUB_API_URL": self.url, "GITHUB_REPOSITORY": "o/r",
                "GITHUB_EVENT_PATH": str(event), "GITHUB_TOKEN": "t0ken"}


def check_comment_api(api: FakeApi, scratch: Path) -> None:
    env = api.env(scratch)
    to = comment.target({**env, "PICOLLO_TOKEN": env["GITHUB_TOKEN"]})
    check(isinstance(to, comment.Target) and to.number == 7, f"the pull request's target: {to}")
    check(comment.target({**env, "PICOLLO_TOKEN": ""}) == "no github-token",
          "no token: no call, and why")
    push = scratch / "push.json"
    push.write_text(json.dumps({"ref": "refs/heads/main"}))
    check(comment.target({**env, "PICOLLO_TOKEN": "t0ken", "GITHUB_EVENT_PATH": str(push)})
          == "the event is not a pull request's", "a push's event: no call, and why")
    marker = "<!-- picollo-suite: x -->"
    api.comments[:] = [{"id": i, "body": f"comment {i}"} for i in range(100)]
    did = comment.post_or_update(to, marker, f"{marker}\nfirst")
    check(did.startswith("posted comment 1100") and api.comments[-1]["body"].endswith("first")
          and ("POST", "/repos/o/r/issues/7/comments") in api.calls,
          f"no marked comment on either page: a POST ({did})")
    api.calls.clear()
    did = comment.post_or_update(to, marker, f"{marker}\nsecond")
    check(did == "updated comment 1100 on pull request #7" and len(api.comments) == 101
          and api.comments[-1]["body"].endswith("second")
          and [m for m, _ in api.calls] == ["GET", "GET", "PATCH"],
          f"the marked comment on page 2 is updated in place: {api.calls}")


def main() -> int:
    check_helpers()
    check_comment_api(FakeApi(), Path(tempfile.mkdtemp(prefix="action-comment-")))
    print(f"action: {len(failures)} failed")
    for what in failures:
        print(f"action: FAILED: {what}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
