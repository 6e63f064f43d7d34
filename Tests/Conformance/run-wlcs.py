#!/usr/bin/env python3
"""Runs Mir's Wayland Conformance Suite (WLCS) against the server's integration module.

Each test suite runs in a process of its own (several at once), so a crash or a hang costs
only the test that caused it: the suite is run again without that test, which is reported
as crashed. Prints one table row per suite and the names of the tests that did not pass,
then compares them with the expected-failure list:

    run-wlcs.py MODULE.so [--expected Tests/Conformance/expected-failures.txt] [--jobs N]

Exit status 1 when a test fails or crashes without being listed, or a listed test passes
(the list must stay true), or a listed name is not a WLCS test at all.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

RUNNER = "/usr/lib/x86_64-linux-gnu/wlcs/wlcs"
RESULT = re.compile(r"^\[ +(OK|FAILED|SKIP) +\] (\S+?)(,| \(|$)")
START = re.compile(r"^\[ RUN +\] (\S+)$")
# A suite that runs longer than this is hung: the test that was running is dropped.
SUITE_TIMEOUT = 240


def list_tests(runner, module):
    out = subprocess.run([runner, module, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
    suites, suite = {}, None
    for line in out.splitlines():
        if not line.strip() or line.startswith("Note:"):
            continue
        if not line.startswith(" "):
            suite = line.strip().rstrip(".")
            suites[suite] = []
        else:
            name = line.split("#")[0].strip()
            if not name.startswith("DISABLED_"):
                suites[suite].append(f"{suite}.{name}")
    return {s: t for s, t in suites.items() if t}


def run_suite(runner, module, suite, tests, log_dir):
    """Results of one suite: {test: 'passed'|'failed'|'skipped'|'crashed'}."""
    results, excluded, attempt = {}, [], 0
    while True:
        attempt += 1
        pattern = f"{suite}.*" + (":-" + ":".join(excluded) if excluded else "")
        try:
            proc = subprocess.run([runner, module, f"--gtest_filter={pattern}"], capture_output=True, text=True,
                                  errors="replace", timeout=SUITE_TIMEOUT)
            output, finished = proc.stdout + proc.stderr, proc.returncode in (0, 1)
        except subprocess.TimeoutExpired as e:
            output = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            finished = False
        with open(os.path.join(log_dir, suite.replace("/", "_") + f".{attempt}.log"), "w") as f:
            f.write(output)
        running = None
        for line in output.splitlines():
            m = START.match(line)
            if m:
                running = m.group(1)
                continue
            m = RESULT.match(line)
            if m and m.group(2) == running:
                results[running] = {"OK": "passed", "FAILED": "failed", "SKIP": "skipped"}[m.group(1)]
                running = None
        if finished:
            break
        if running is None or running in excluded:
            # Died outside a test: whatever did not report is counted as crashed.
            for t in tests:
                results.setdefault(t, "crashed")
            break
        results[running] = "crashed"
        excluded.append(running)
    for t in tests:
        results.setdefault(t, "crashed")
    return results


def read_expected(path):
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(" ")
            if not reason.strip():
                sys.exit(f"{path}:{number}: {name} has no reason")
            expected[name] = reason.strip()
    return expected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("--runner", default=RUNNER)
    parser.add_argument("--expected")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--logs", default=".build/wlcs-logs")
    parser.add_argument("--filter", help="run only suites whose name contains this")
    parser.add_argument("--sanitizer-reports", action="store_true",
                        help="fail when a suite's output holds a ThreadSanitizer or AddressSanitizer report")
    args = parser.parse_args()
    os.makedirs(args.logs, exist_ok=True)
    for old in os.listdir(args.logs):
        os.remove(os.path.join(args.logs, old))

    suites = list_tests(args.runner, args.module)
    if args.filter:
        suites = {s: t for s, t in suites.items() if args.filter in s}
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_suite, args.runner, args.module, s, t, args.logs): s for s, t in suites.items()}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()

    kinds = ["passed", "failed", "crashed", "skipped"]
    width = max(len(s) for s in suites) if suites else 5
    print(f"{'suite':<{width}}  " + "  ".join(f"{k:>7}" for k in kinds))
    totals = dict.fromkeys(kinds, 0)
    for suite in sorted(suites):
        counts = dict.fromkeys(kinds, 0)
        for outcome in results[suite].values():
            counts[outcome] += 1
            totals[outcome] += 1
        print(f"{suite:<{width}}  " + "  ".join(f"{counts[k]:>7}" for k in kinds))
    print(f"{'total':<{width}}  " + "  ".join(f"{totals[k]:>7}" for k in kinds))

    outcome = {t: o for r in results.values() for t, o in r.items()}
    not_passing = sorted(t for t, o in outcome.items() if o in ("failed", "crashed"))
    if not_passing:
        print("\nnot passing:")
        for t in not_passing:
            print(f"  {outcome[t]:>7}  {t}")

    reports = 0
    if args.sanitizer_reports:
        for name in sorted(os.listdir(args.logs)):
            with open(os.path.join(args.logs, name), errors="replace") as f:
                found = sum(1 for line in f if re.match(r"^(WARNING: ThreadSanitizer|==\d+==ERROR: AddressSanitizer)", line))
            if found:
                print(f"{found} sanitizer reports in {os.path.join(args.logs, name)}")
                reports += found
        print(f"sanitizer reports: {reports}")

    if args.expected is None:
        return 1 if reports else 0
    expected = read_expected(args.expected)
    status = 0
    unexpected = [t for t in not_passing if t not in expected]
    if unexpected:
        status = 1
        print(f"\n{len(unexpected)} not passing and not in {args.expected}:")
        for t in unexpected:
            print(f"  {t}")
    stale = sorted(t for t in expected if outcome.get(t) in ("passed", "skipped"))
    if stale:
        status = 1
        print(f"\n{len(stale)} listed in {args.expected} but {'passing' if len(stale) == 1 else 'not failing'}: remove them")
        for t in stale:
            print(f"  {outcome[t]:>7}  {t}")
    if not args.filter:
        unknown = sorted(t for t in expected if t not in outcome)
        if unknown:
            status = 1
            print(f"\n{len(unknown)} listed in {args.expected} but not WLCS tests:")
            for t in unknown:
                print(f"  {t}")
    listed = sum(1 for t in not_passing if t in expected)
    print(f"\n{listed} expected failures (listed in {args.expected})")
    # The closing line counts only what breaks the build: unlisted failures, stale entries.
    print(f"wlcs: {totals['passed']} passed, {len(unexpected) + len(stale) + reports} failed, {totals['skipped']} skipped")
    return 1 if reports else status


if __name__ == "__main__":
    sys.exit(main())
