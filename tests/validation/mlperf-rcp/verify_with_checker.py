#!/usr/bin/env python3
"""Cross-check rcps.csv against the real mlperf_logging rcp_checker at the same commit.

Needs numpy + scipy (the checker imports them), e.g. a throw-away venv:
    python3 -m venv /tmp/rcpvenv && /tmp/rcpvenv/bin/pip install numpy scipy
    /tmp/rcpvenv/bin/python verify_with_checker.py [--git-dir ...] [--csv rcps.csv]

It `git archive`s mlperf_logging/ of the commit recorded in the CSV into a temp dir,
instantiates RCP_Checker(usage, version, benchmark) for every (usage, version, file)
and compares the checker's 'RCP Mean' (olympic mean, raw units) and its pruned set
with the CSV columns raw_checker_olympic_mean and in_pruned_set.  It also prints the
checker's 'Max Speedup' / 'Min Epochs' (minimum acceptable submission mean) per RCP,
written to checker_stats.csv.
"""
import argparse
import csv
import io
import logging
import os
import subprocess
import sys
import tarfile
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("--git-dir", default="/work/.mirror/mlcommons+logging/repo")
ap.add_argument("--csv", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "rcps.csv"))
ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "checker_stats.csv"))
args = ap.parse_args()

rows = list(csv.DictReader(open(args.csv)))
commit = rows[0]["commit"]
tmp = tempfile.mkdtemp(prefix="rcpcheck_")
tar = subprocess.check_output(["git", "--git-dir=" + args.git_dir, "archive", commit, "mlperf_logging"])
tarfile.open(fileobj=io.BytesIO(tar)).extractall(tmp)
sys.path.insert(0, tmp)
logging.disable(logging.CRITICAL)
from mlperf_logging.rcp_checker import rcp_checker as rc  # noqa: E402

groups = {}
for r in rows:
    groups.setdefault((r["usage"], r["version"], r["source_path"]), []).append(r)

bad = 0
checked = 0
out = []
for (usage, version, path), rs in sorted(groups.items()):
    fbench = os.path.basename(path)[len("rcps_"):-len(".json")]
    if fbench not in rc.submission_runs.get(usage, {}):
        print("skip (checker no longer knows benchmark): %s" % path)
        continue
    chk = rc.RCP_Checker(usage, version, fbench, False)
    pruned_bs = {v["BS"] for v in chk.pruned_rcp_data.values()}
    for r in rs:
        rec = chk.rcp_data[r["record"]]
        mine = float(r["raw_checker_olympic_mean"])
        ok_mean = abs(rec["RCP Mean"] - mine) <= 1e-3 * max(1.0, abs(mine))
        ok_prune = (r["in_pruned_set"] == "yes") == (rec["BS"] in pruned_bs)
        checked += 1
        if not (ok_mean and ok_prune):
            bad += 1
            print("MISMATCH", path, r["record"], rec["RCP Mean"], mine, r["in_pruned_set"], rec["BS"] in pruned_bs)
        out.append({"source_path": path, "record": r["record"], "BS": rec["BS"],
                    "rcp_mean_raw": "%.6g" % rec["RCP Mean"], "rcp_stdev_raw": "%.6g" % rec["RCP Stdev"],
                    "max_speedup": "%.6g" % rec["Max Speedup"], "min_acceptable_mean_raw": "%.6g" % rec["Min Epochs"],
                    "in_pruned_set": "yes" if rec["BS"] in pruned_bs else "no"})
with open(args.out, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(out[0].keys()))
    w.writeheader()
    w.writerows(out)
print("checked %d records, %d mismatches; checker stats -> %s" % (checked, bad, args.out))
sys.exit(1 if bad else 0)
