#!/usr/bin/env python3
"""The action's sticky pull-request comment: the summary's verdicts under a hidden marker,
posted once and updated in place on every later push.

`comment.py SUMMARY BODY MARKER` writes the comment's body (MARKER, then SUMMARY's Markdown,
cut to GitHub's limit) to the file BODY, then finds the pull request's comment holding MARKER
through GitHub's REST API and updates it (PATCH), or posts a new one (POST). Where there is
no token or no pull request (a local run, a push), it says why and calls nothing. An API
error is a warning annotation, never a failed job: a pull request from a fork gets a token
that cannot write, and the body is in the artifact either way.

The environment: PICOLLO_TOKEN (the `github-token` input), GITHUB_REPOSITORY,
GITHUB_EVENT_PATH (the event's JSON: `pull_request.number`), GITHUB_API_URL (default
https://api.github.com).
"""
from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

#: GitHub refuses a comment body past 65,536 characters; the rest leaves room for the note.
LIMIT = 60_000


@dataclass(frozen=True)
class Comment:
    """An issue comment as the REST API lists it: the fields read here."""

    id: int
    body: str

    @staticmethod
    def of(record: dict) -> "Comment":
        return Comment(id=int(record["id"]), body=str(record.get("body") or ""))


@dataclass(frozen=True)
class Target:
    """Where the comment goes: the API's root, the repository (owner/name), the pull
    request's number and the token."""

    api: str
    repo: str
    number: int
    token: str


def body(marker: str, summary: str) -> str:
    """The comment: the marker (hidden when rendered), then the summary, cut at a line
    under LIMIT characters where it is longer, with an open <details> closed."""
    text = summary
    if len(text) > LIMIT:
        kept, size = [], 0
        for line in summary.splitlines(keepends=True):
            if size + len(line) > LIMIT:
                break
            kept.append(line)
            size += len(line)
        text = "".join(kept)
        if text.count("<details>") > text.count("</details>"):
            text += "\n</details>\n"
        text += ("\n\n*The summary is longer than a comment may be: the rest is in the job's "
                 "summary and the artifact.*\n")
    return f"{marker}\n{text}"


def target(env: dict[str, str]) -> Target | str:
    """Where to comment, or why not (no token, not a pull request's event)."""
    token = env.get("PICOLLO_TOKEN", "")
    if not token:
        return "no github-token"
    repo = env.get("GITHUB_REPOSITORY", "")
    if not repo:
        return "GITHUB_REPOSITORY is not set"
    event = env.get("GITHUB_EVENT_PATH", "")
    if not event or not Path(event).is_file():
        return "no event file (GITHUB_EVENT_PATH)"
    number = (json.loads(Path(event).read_text(encoding="utf-8")).get("pull_request") or {}).get("number")
    if not number:
        return "the event is not a pull request's"
    return Target(env.get("GITHUB_API_URL") or "https://api.github.com", repo, int(number), token)


def request(to: Target, method: str, path: str, payload: dict | None = None):
    """One call of the REST API: its JSON reply."""
    data = None if payload is None else json.dumps(payload).encode()
    req = urllib.request.Request(f"{to.api.rstrip('/')}{path}", data=data, method=method, headers={
        "Accept": "application/vnd.github+json", "Authorization": f"Bearer {to.token}",
        "X-GitHub-Api-Version": "2022-11-28", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as reply:
        return json.loads(reply.read() or b"null")


def find(to: Target, marker: str) -> Comment | None:
    """The pull request's first comment holding the marker, page by page (100 a page)."""
    page = 1
    while True:
        listed = request(to, "GET", f"/repos/{to.repo}/issues/{to.number}/comments"
                         f"?per_page=100&page={page}")
        for comment in map(Comment.of, listed):
            if marker in comment.body:
                return comment
        if len(listed) < 100:
            return None
        page += 1


def post_or_update(to: Target, marker: str, text: str) -> str:
    """Update the comment holding the marker, else post one: what was done."""
    found = find(to, marker)
    if found is None:
        made = Comment.of(request(to, "POST", f"/repos/{to.repo}/issues/{to.number}/comments",
                                  {"body": text}))
        return f"posted comment {made.id} on pull request #{to.number}"
    request(to, "PATCH", f"/repos/{to.repo}/issues/comments/{found.id}", {"body": text})
    return f"updated comment {found.id} on pull request #{to.number}"


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print("usage: comment.py SUMMARY BODY MARKER", file=sys.stderr)
        return 2
    summary, out, marker = Path(argv[1]), Path(argv[2]), argv[3]
    text = summary.read_text(encoding="utf-8") if summary.is_file() else ""
    if not text.strip():
        print(f"Picollo: no comment: no summary was written ({summary})")
        return 0
    out.write_text(body(marker, text), encoding="utf-8")
    to = target(dict(os.environ))
    if isinstance(to, str):
        print(f"Picollo: the comment's body is {out}; not posted: {to}")
        return 0
    try:
        print(f"Picollo: {post_or_update(to, marker, out.read_text(encoding='utf-8'))}")
    except (urllib.error.URLError, OSError, ValueError, KeyError) as e:
        why = f"HTTP {e.code} {e.reason}" if isinstance(e, urllib.error.HTTPError) else str(e)
        print(f"::warning title=Picollo: no comment::the comment could not be posted ({why}; a "
              f"pull request from a fork gets a read-only token); its body is {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
