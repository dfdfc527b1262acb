#!/usr/bin/env python3
"""Extract RetinaNet (ssd) per-epoch throughput from MLPerf Training results mirrors."""
import json, re, subprocess, sys, statistics
TRAIN_IMAGES = 1170301
repos = sys.argv[1:]
rows = []
for repo in repos:
    ver = re.search(r"training_results_(v[\d.]+)", repo).group(1)
    files = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD"], capture_output=True, text=True).stdout.split()
    files = [f for f in files if re.search(r"/results/[^/]+/ssd/result_\d+\.txt$", f)]
    for f in files:
        txt = subprocess.run(["git", "-C", repo, "show", "HEAD:" + f], capture_output=True, text=True, errors="replace").stdout
        ev = []
        for line in txt.splitlines():
            i = line.find(":::MLLOG ")
            if i < 0: continue
            try: ev.append(json.loads(line[i + 9:]))
            except Exception: pass
        get = lambda k: next((e["value"] for e in ev if e.get("key") == k), None)
        lbs, gbs, plat = get("local_batch_size"), get("global_batch_size"), get("submission_platform")
        thr = [e["value"]["throughput"] for e in ev if e.get("key") == "tracked_stats" and isinstance(e.get("value"), dict) and "throughput" in e["value"]]
        starts = {}; durs = []
        for e in ev:
            if e.get("key") == "epoch_start": starts[e["value"]] = e["time_ms"]
            if e.get("key") == "epoch_stop" and e["value"] in starts: durs.append((e["value"], (e["time_ms"] - starts[e["value"]]) / 1000))
        rs = get("run_start"); rstop = next((e["time_ms"] for e in ev if e.get("key") == "run_stop"), None)
        rs_t = next((e["time_ms"] for e in ev if e.get("key") == "run_start"), None)
        ngpu = gbs // lbs if lbs and gbs else None
        full = [d for k, d in durs if d > 60]  # full epochs (last one may be partial)
        per_gpu_epoch = (TRAIN_IMAGES / statistics.median(full) / ngpu) if full and ngpu else None
        rows.append(dict(ver=ver, file=f, platform=plat, lbs=lbs, gbs=gbs, ngpu=ngpu,
                         thr_median=statistics.median(thr) if thr else None,
                         epoch_s_median=statistics.median(full) if full else None,
                         per_gpu_from_epoch=per_gpu_epoch,
                         ttt_min=(rstop - rs_t) / 60000 if rstop and rs_t else None))
json.dump(rows, sys.stdout, indent=1)
