#!/usr/bin/env python3
"""Tests the hello plugin as it runs: starts a real `loupe serve` with the plugin enabled on a
free port, drives its routes over HTTP and stops the server.

  hello_test.py --loupe /usr/bin/loupe --plugin-path BUILD_DIR:/usr/lib/loupe/plugins

By default the server gets a fresh data folder (SQLite) of its own. With --data-dir the
configuration's own data folder is used as it is (it must be that folder), and with --user the
server runs as that user (as the packaged service does).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

TIMEOUT_S = 60


def fail(message, log_path=None):
    print(f"FAIL: {message}", file=sys.stderr)
    if log_path and os.path.exists(log_path):
        with open(log_path, encoding="utf-8", errors="replace") as log:
            print("--- server output ---\n" + log.read(), file=sys.stderr)
    sys.exit(1)


def request(method, url, token=None, body=None, accept="application/json"):
    headers = {"Accept": accept}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def request_json(method, url, token=None, body=None):
    status, _, payload = request(method, url, token, body)
    return status, json.loads(payload) if payload else None


def poll(what, probe, log_path):
    """Calls probe() until it returns something truthy."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.1)
    fail(f"timed out waiting for {what}", log_path)


def start_server(args, data_dir, log_path):
    command = [args.loupe]
    if args.config:
        command += ["--config", args.config]
    settings = {
        "http.listen_address": "127.0.0.1",
        "http.port": "0",
        "plugins.path": args.plugin_path,
        "plugins.enabled": args.enable,
        "jobs.poll_ms": "50",
    }
    if not args.data_dir:
        settings["data.dir"] = data_dir
        settings["db.url"] = f"sqlite:{data_dir}/loupe.db"
    for key, value in settings.items():
        command += ["--set", f"{key}={value}"]
    command.append("serve")
    user = {}
    if args.user:
        user = {"user": args.user, "group": args.user, "extra_groups": []}
    log = open(log_path, "wb")
    # In the data folder, as the packaged service runs (WorkingDirectory=): no ./etc/ there.
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=data_dir, **user)
    log.close()

    def listening():
        if process.poll() is not None:
            fail(f"loupe exited with code {process.returncode} before listening", log_path)
        with open(log_path, encoding="utf-8", errors="replace") as output:
            match = re.search(r"listening on http://[^:\s]+:(\d+)", output.read())
        return match and int(match.group(1))

    return process, poll("the server to listen", listening, log_path)


def check_plugin(base, token, log_path, web_enabled):
    # A request with a body is authenticated before the body is read: without a token, even an
    # invalid greeting is a 401; with one, the body is validated.
    status, body = request_json("POST", f"{base}/hello/greetings", None, {"text": ""})
    if status != 401:
        fail(f"an empty greeting without a token answered {status} {body}", log_path)
    status, body = request_json("POST", f"{base}/hello/greetings", token, {"text": ""})
    if status != 400 or body["details"][0]["message"] != "text must be a string of 1 to 200 characters":
        fail(f"an empty greeting answered {status} {body}", log_path)
    status, body = request_json("POST", f"{base}/hello/greetings", None, {"text": "world"})
    if status != 401:
        fail(f"a greeting without a token answered {status} {body}", log_path)

    # The route stores the greeting; the job writes its reply afterwards.
    status, created = request_json("POST", f"{base}/hello/greetings", token, {"text": "world"})
    if status != 201 or created["text"] != "world" or created["reply"] is not None:
        fail(f"POST /hello/greetings answered {status} {created}", log_path)

    def replied():
        status, greetings = request_json("GET", f"{base}/hello/greetings", token)
        if status != 200:
            fail(f"GET /hello/greetings answered {status} {greetings}", log_path)
        mine = [g for g in greetings if g["id"] == created["id"]]
        return mine and mine[0]["reply"] == "Hello, world!"

    poll("the hello.reply job to answer the greeting", replied, log_path)

    # The builds service: a build read by number; the subscriber to concluded builds.
    status, body = request_json(
        "POST", f"{base}/builds", token,
        {"commit": "a" * 40, "branch": "main", "screenshotKeys": [], "skipped": True})
    if status != 201:
        fail(f"POST /builds answered {status} {body}", log_path)
    number = body["build"]["number"]

    def greeted():
        status, body = request_json("GET", f"{base}/hello/builds/{number}", token)
        if status != 200:
            fail(f"GET /hello/builds/{number} answered {status} {body}", log_path)
        return body["greeting"] == f"Hello, build #{number} on main (no-changes)"

    poll(f"build #{number} to conclude", greeted, log_path)

    def greeted_by_subscriber():
        _, greetings = request_json("GET", f"{base}/hello/greetings", token)
        return any(g["text"] == f"build #{number} (no-changes)" and
                   g["reply"] == f"Hello, build #{number} (no-changes)!" for g in greetings)

    poll("the subscriber's greeting of the concluded build", greeted_by_subscriber, log_path)

    status, body = request_json("GET", f"{base}/hello/builds/999999", token)
    if status != 404 or body["error"] != "Build not found":
        fail(f"an unknown build answered {status} {body}", log_path)
    status, body = request_json("GET", f"{base}/hello/builds/x1", token)
    if status != 400:
        fail(f"a malformed build number answered {status} {body}", log_path)

    if web_enabled:
        # The review page's assets were found where the web plugin looks for them (the page
        # answers a browser's navigation, which asks for HTML).
        status, headers, _ = request("GET", base.removesuffix("/v2") + "/", accept="text/html")
        if status != 200 or not headers.get("Content-Type", "").startswith("text/html"):
            fail(f"the review page answered {status}", log_path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loupe", required=True, help="the loupe executable")
    parser.add_argument("--plugin-path", required=True, help="plugins.path (folders, ':')")
    parser.add_argument("--enable", default="auth, builds, hello", help="plugins.enabled")
    parser.add_argument("--config", help="the properties file (default: loupe's own lookup)")
    parser.add_argument("--data-dir", help="the configuration's data.dir, used as it is")
    parser.add_argument("--user", help="run the server as this user")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="loupe-hello-test.")
    os.chmod(scratch, 0o755)  # the server may run as another user
    data_dir = args.data_dir or os.path.join(scratch, "data")
    if not args.data_dir:
        os.mkdir(data_dir, 0o700)
        if args.user:
            shutil.chown(data_dir, args.user, args.user)
    log_path = os.path.join(scratch, "server.log")
    process, port = start_server(args, data_dir, log_path)
    try:
        bootstrap_path = os.path.join(data_dir, "bootstrap.json")
        with open(bootstrap_path, encoding="utf-8") as bootstrap:
            token = json.load(bootstrap)["projectToken"]
        enabled = {name.strip() for name in args.enable.split(",")}
        check_plugin(f"http://127.0.0.1:{port}/v2", token, log_path, "web" in enabled)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.returncode != 0:
        fail(f"loupe serve exited with code {process.returncode} after SIGTERM", log_path)
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            if "event=plugin.installed" in line:
                print(line.rstrip())
    shutil.rmtree(scratch)
    print(f"ok: the hello plugin served its routes, job and build greeting on port {port}")


if __name__ == "__main__":
    main()
