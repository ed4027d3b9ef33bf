#!/usr/bin/env python3
"""The pass explorer in a real browser: relay-opt writes the report of resnet-18 (bound, the
default pipeline at -O3, --verify-each) and of resnet-152; headless Chromium loads each page
from disk; the DOM it ends with must list every pass of the report's data with its time, show
the diff pane and the graph (an SVG with nodes). Saves build/report_resnet18.png. resnet-152's
page must stay under 20 MB and render (page load to the script's end) in under 2 s.
Exit 77 (skipped) when Chromium is not installed. Usage: browser_check.py BUILD_DIR"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class DomScan(html.parser.HTMLParser):
    """Collects the pass rows, the diff and the graph nodes of the rendered DOM."""

    def __init__(self):
        super().__init__()
        self.rows, self.body, self.in_diff, self.diff_spans, self.svg, self.graph_nodes = [], {}, 0, 0, 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "body":
            self.body = a
        if tag == "div" and "pass" in classes:
            self.rows.append(a)
        if tag == "pre" and "diff" in classes:
            self.in_diff = 1
        if tag == "span" and self.in_diff and classes and classes[0] in ("add", "del", "hunk"):
            self.diff_spans += 1
        if tag == "svg":
            self.svg += 1
        if tag == "g" and "node" in classes:
            self.graph_nodes += 1


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def render(browser, page, profile, screenshot=None):
    flags = CHROMIUM_FLAGS + ["--user-data-dir=" + profile, "--window-size=1400,900"]
    if screenshot:
        subprocess.run([browser] + flags + ["--screenshot=" + screenshot, "file://" + page],
                       check=True, capture_output=True, timeout=120)
    out = subprocess.run([browser] + flags + ["--dump-dom", "file://" + page], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    scan = DomScan()
    scan.feed(out)
    return scan


def report_data(page):
    text = open(page, encoding="utf-8").read()
    m = re.search(r'<script id="report-data" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))


def main():
    build = os.path.abspath(sys.argv[1])
    browser = chromium()
    if not browser:
        print("skipped: Chromium is not installed (scripts/install-deps.sh installs it)")
        return 77
    relay_opt = os.path.join(build, "relay-opt")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "resnet18.html")
        subprocess.run([relay_opt, "--workload=resnet-18", "--bind-params", "--pipeline=default",
                        "-O3", "--verify-each", "--report=" + page, "--emit=none"],
                       check=True, capture_output=True, timeout=600)
        data = report_data(page)
        shot = os.path.join(build, "report_resnet18.png")
        dom = render(browser, page, os.path.join(tmp, "profile"), shot)
        if dom.body.get("data-rendered") != "yes":
            failures.append("the page's script did not finish")
        if len(dom.rows) != len(data["passes"]):
            failures.append("{} pass rows for {} passes".format(len(dom.rows), len(data["passes"])))
        for row, rec in zip(dom.rows, data["passes"]):
            if row.get("data-name") != rec["name"] or "data-time-us" not in row:
                failures.append("row {} does not show pass {} with its time".format(row, rec["name"]))
                break
        if dom.diff_spans == 0:
            failures.append("the diff pane shows no diff")
        if dom.svg == 0 or dom.graph_nodes < 10:
            failures.append("the graph pane has {} svg and {} nodes".format(dom.svg, dom.graph_nodes))
        if not os.path.exists(shot) or os.path.getsize(shot) < 10000:
            failures.append("no screenshot")

        big = os.path.join(tmp, "resnet152.html")
        subprocess.run([relay_opt, "--workload=resnet-152", "--bind-params", "--pipeline=default",
                        "-O3", "--report=" + big, "--emit=none"], check=True, capture_output=True,
                       timeout=900)
        size = os.path.getsize(big)
        dom = render(browser, big, os.path.join(tmp, "profile2"))
        ms = int(dom.body.get("data-render-ms", "1000000"))
        print("resnet-152 report: {:.1f} MB, rendered in {} ms".format(size / 1e6, ms))
        if size >= 20e6:
            failures.append("resnet-152's page is {:.1f} MB (limit 20 MB)".format(size / 1e6))
        if ms >= 2000:
            failures.append("resnet-152's page took {} ms to render (limit 2000)".format(ms))
    for f in failures:
        print("FAIL:", f)
    print("resnet-18 report: {} passes, screenshot {}".format(len(data["passes"]), shot))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
