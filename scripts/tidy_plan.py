#!/usr/bin/env python3
"""tidy_plan.py COMPILE_COMMANDS < unified diff (-U0): what scripts/tidy-changed.sh runs.

Prints clang-tidy's --line-filter (the added or modified lines of each changed file) on the
first line, then one translation unit per line: each changed source file the compile database
knows, and for each changed header (or source file it does not know) one known file that
includes it, unless a changed one already does.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def changed_lines(diff):
    lines, name = {}, None
    for line in diff:
        if line.startswith("+++ "):
            path = line[4:].rstrip("\n")
            name = path[2:] if path.startswith("b/") else None
        elif name and line.startswith("@@"):
            match = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            start, count = int(match.group(1)), int(match.group(2) or 1)
            if count:
                lines.setdefault(name, []).append([start, start + count - 1])
    return lines


def includes(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            return re.findall(r'^\s*#\s*include\s+["<]([^">]+)[">]', source.read(), re.M)
    except OSError:
        return []


def main():
    with open(sys.argv[1], encoding="utf-8") as database:
        known = sorted({os.path.normpath(os.path.join(entry["directory"], entry["file"]))
                        for entry in json.load(database)})
    lines = changed_lines(sys.stdin)
    units = [os.path.join(ROOT, name) for name in lines if os.path.join(ROOT, name) in known]
    for name in lines:
        path = os.path.join(ROOT, name)
        if path in known:
            continue

        def includes_it(unit):
            return any(name.endswith("/" + included) or name == included
                       for included in includes(unit))

        if not any(includes_it(unit) for unit in units):
            # Among the files including it, the nearest: "routes/routes.hpp" names several.
            candidates = [unit for unit in known if includes_it(unit)]
            if candidates:
                units.append(max(candidates, key=lambda unit: len(os.path.commonpath([unit, path]))))
    filter_entries = [{"name": name, "lines": ranges} for name, ranges in sorted(lines.items())]
    print(json.dumps(filter_entries, separators=(",", ":")))
    for unit in units:
        print(unit)


if __name__ == "__main__":
    main()
