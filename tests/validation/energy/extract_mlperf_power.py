#!/usr/bin/env python3
"""Extract per-run energy of CNN benchmarks from MLPerf Training power submissions.

Reads fetched git mirrors (no work tree) with `git show <commit>:<path>`.
Energy is computed the way mlcommons/logging result_summarizer does it
(_compute_total_power): for each node file, time-weighted average of
power_reading over the power-measurement window, times conversion_eff, times
time-to-train (run_stop - run_start from the result_*.txt); plus, for each
sw_*.txt, interconnect_power_est * conversion_eff * time-to-train.
Node parsing follows the file order / break-at-stop semantics of
result_summarizer at logging commit a9f4839 (2024-05-30, used for v4.0);
for v5.0 the windowed variant (c401ff0+) gives the same numbers because all
readings lie inside [start, stop] (checked below: 'outside' count).
Also reports an alternative 'measured in run window' energy: trapezoid-free
rectangle integration of node readings with run_start <= t <= run_stop.
"""
import json, re, subprocess, sys, csv

MIRRORS = {
    "v4.0": "/work/.mirror/mlcommons+training_results_v4.0/repo",
    "v5.0": "/work/.mirror/mlcommons+training_results_v5.0/repo",
}
SETS = [  # (round, submitter dir, system, benchmark, gpus_per_node)
    ("v4.0", "smc-ac-power", "1xSMC-H100-SXM-80GB", "resnet", 8),
    ("v4.0", "smc-ac-power", "8xSMC-H100-SXM-80GB", "resnet", 8),
    ("v4.0", "smc-ac-power", "1xSMC-H100-SXM-80GB", "ssd", 8),
    ("v4.0", "smc-ac-power", "8xSMC-H100-SXM-80GB", "ssd", 8),
    ("v4.0", "smc-ac-power", "1xSMC-H100-SXM-80GB", "unet3d", 8),
    ("v4.0", "smc-ac-power", "9xSMC-H100-SXM-80GB", "unet3d", 8),
    ("v5.0", "Lenovo", "SR780aV3-8xB200_SXM_180GB", "retinanet", 8),
]
ML = re.compile(r':::MLLOG\s*(\{.*\})')

def git(repo, *a):
    return subprocess.run(["git", "-C", repo, *a], check=True, capture_output=True).stdout

def mllog(repo, path):
    out = []
    for line in git(repo, "show", "HEAD:" + path).decode("utf-8", "replace").splitlines():
        m = ML.search(line)
        if not m:
            continue
        try:
            d = json.loads(m.group(1))
        except json.JSONDecodeError:
            continue
        out.append(d)
    return out

def node_energy(lines, ttt_ms, run_start, run_stop):
    start = stop = None; prev = 0; agg = 0.0; maxts = 0; eff = 1.0
    n = 0; outside = 0
    for d in lines:  # file order, as in logging@a9f4839
        k = d.get("key")
        if k == "power_measurement_start":
            start = d["time_ms"]; prev = start
        elif k == "power_reading":
            agg += float(d["value"]) * (d["time_ms"] - prev); prev = d["time_ms"]
            maxts = max(maxts, d["time_ms"]); n += 1
        elif k == "power_measurement_stop":
            stop = d["time_ms"]; break
        elif k == "conversion_eff":
            eff = float(d["value"])
    stop = max(stop or 0, maxts)
    avg_w = agg / (stop - start)
    e_off = eff * avg_w * ttt_ms / 1000.0  # joules (official method)
    # alternative: readings inside the timed run window only (rectangle rule)
    rd = [(d["time_ms"], float(d["value"])) for d in lines if d.get("key") == "power_reading"]
    rd.sort()
    e_win = 0.0; p = None
    for t, v in rd:
        if p is not None:
            a, b = max(p[0], run_start), min(t, run_stop)
            if b > a:
                e_win += v * (b - a) / 1000.0
        p = (t, v)
    cover = (rd[0][0] <= run_start + 60000 and rd[-1][0] >= run_stop - 60000) if rd else False
    return dict(avg_w=avg_w, eff=eff, e_off=e_off, e_win_raw=e_win, n=n,
                win=(start, stop), covers_run=cover,
                interval_s=(rd[-1][0] - rd[0][0]) / 1000.0 / max(1, len(rd) - 1))

rows = []
for rnd, sub, sysname, bench, gpn in SETS:
    repo = MIRRORS[rnd]
    commit = git(repo, "rev-parse", "HEAD").decode().strip()
    base = f"{sub}/results/{sysname}/{bench}"
    files = git(repo, "ls-tree", "-r", "--name-only", "HEAD", base).decode().split()
    results = sorted(f for f in files if "/power/" not in f and re.search(r"/result_[^/]*\.txt$", f)
                     and "_raw_" not in f)
    sysj = json.loads(re.sub(r",\s*}", "}", git(repo, "show", f"HEAD:{sub}/systems/{sysname}.json").decode()))
    nnodes = int(sysj["number_of_nodes"]); gpus = nnodes * int(sysj["accelerators_per_node"])
    for rf in results:
        L = mllog(repo, rf)
        kv = {}
        for d in L:
            kv.setdefault(d["key"], d)
        rs, re_ = kv["run_start"]["time_ms"], kv["run_stop"]["time_ms"]
        status = kv["run_stop"].get("metadata", {}).get("status")
        ttt = re_ - rs
        gbs = kv.get("global_batch_size", {}).get("value")
        name = rf.split("/")[-1][:-4]
        pf = [f for f in files if f"/power/{name}/" in f and f.endswith(".txt")]
        nodes = [node_energy(mllog(repo, f), ttt, rs, re_) for f in pf if "/node_" in f.split(name)[-1]]
        sw_e = 0.0; sw_w = 0.0
        for f in pf:
            if "/sw_" in f:
                eff = 1.0
                for d in mllog(repo, f):
                    if d["key"] == "conversion_eff": eff = float(d["value"])
                    if d["key"] == "interconnect_power_est":
                        sw_w += float(d["value"]); sw_e += eff * float(d["value"]) * ttt / 1000.0; break
        e_nodes = sum(n["e_off"] for n in nodes)
        e_tot = e_nodes + sw_e
        rows.append(dict(round=rnd, submitter=sub, system=sysname, bench=bench, result=rf, commit=commit,
                         nnodes=nnodes, n_nodefiles=len(nodes), gpus=gpus, gpn=gpn, gbs=gbs, status=status,
                         ttt_s=ttt / 1000.0, e_tot_j=e_tot, e_nodes_j=e_nodes, e_sw_j=sw_e, sw_w=sw_w,
                         node_avg_w=[round(n["avg_w"], 1) for n in nodes], eff=nodes[0]["eff"],
                         e_win_raw_j=sum(n["e_win_raw"] for n in nodes),
                         covers=all(n["covers_run"] for n in nodes),
                         interval_s=round(nodes[0]["interval_s"], 2),
                         win_s=[(n["win"][1] - n["win"][0]) / 1000 for n in nodes][:1]))
json.dump(rows, open(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdout", "w"), indent=1)
