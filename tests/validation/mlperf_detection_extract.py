#!/usr/bin/env python3
"""Extract measured training throughput of SSD (ResNet-34 SSD300) and Mask R-CNN from the
MLPerf Training results mirrors (mlcommons/training_results_v0.6 .. v2.1).  Stdlib only.

Usage:
  mlperf_det_extract.py OUTDIR REPO [REPO ...]
     REPO = path of a git dir of mlcommons/training_results_vX.Y (read with `git show`)

Writes OUTDIR/mlperf-ssd.csv, OUTDIR/mlperf-maskrcnn.csv (same columns as
tests/validation/mlperf-retinanet.csv) and OUTDIR/mlperf-{ssd,maskrcnn}-detail.csv
(every system, both throughput estimates, time to train, accelerator).

Benchmarks: "ssd" in v0.6, v0.7, v1.0, v1.1 is SSD-ResNet34 300x300 (COCO 2017, 117,266
train images).  From v2.0 on the "ssd" directory holds RetinaNet (OpenImages, 1,170,301
images) and is skipped here (see mlperf-retinanet.csv).  "maskrcnn" v0.6 .. v2.1.

Per result file:
  * tracked: median of `tracked_stats.throughput` (or of the `throughput` key), a global
    images/s figure logged by the training loop (v1.0+ NVIDIA-derived code only);
  * epoch:   117,266 images / median duration of the epoch_start..epoch_stop intervals
    (epoch 1 left out when there are more than 3 epochs: warm-up); if a log has no
    epoch events, block_start..block_stop / epoch_count.  Mask R-CNN logs `train_samples`
    = 40000 (not the epoch size): the epoch is 117,266 images (1,222 steps at global
    batch 96 in the v1.1 logs, confirmed from tracked_stats steps).
Per system: median over its result files.  images_per_s_per_gpu in the summary CSV is
the tracked figure when present, else the epoch figure (same rule as the RetinaNet CSV).
GPU count: systems/<system>.json number_of_nodes x accelerators_per_node (v0.6: the
submission_entry nodes field); per-GPU batch = global_batch_size / GPUs (cross-checked
with d_batch_size where logged).
"""
import ast, csv, json, os, re, statistics, subprocess, sys

COCO_TRAIN = 117266
# NVIDIA large-scale Mask R-CNN runs reserve GPUs as dedicated evaluation ranks
# (DEDICATED_EVALUATION_RANKS in the config_DGXA100_multi*.sh); they do not train.
DEDICATED_EVAL = {("v1.1", "dgxa100_n51_ngc21.09_pytorch"): 136,
                  ("v2.0", "dgxa100_n48_ngc22.04_pytorch"): 128,
                  ("v2.1", "dgxa100_n48_ngc22.09_pytorch"): 128}


def git(repo, *a):
    return subprocess.run(["git", "-C", repo, *a], capture_output=True, text=True, errors="replace").stdout


def parse_log(txt):
    ev = []
    for line in txt.splitlines():
        i = line.find(":::MLLOG ")
        if i >= 0:
            try:
                e = json.loads(line[i + 9:])
            except Exception:
                continue
            ev.append((e.get("time_ms", 0) / 1000.0, e.get("key"), e.get("value"), e.get("metadata") or {}))
            continue
        m = re.search(r":::MLL ([0-9.]+) ([A-Za-z_0-9]+): (.*)$", line)
        if m:
            try:
                e = json.loads(m.group(3))
            except Exception:
                continue
            ev.append((float(m.group(1)), m.group(2), e.get("value"), e.get("metadata") or {}))
    return ev


def median(x):
    return statistics.median(x) if x else None


def analyse(ev, train_images):
    get = lambda k: next((v for t, kk, v, md in ev if kk == k), None)
    gbs = get("global_batch_size")
    dbs = get("d_batch_size") or get("local_batch_size")
    thr = []
    for t, k, v, md in ev:
        if k == "tracked_stats" and isinstance(v, dict) and "throughput" in v:
            thr.append(float(v["throughput"]))
    if not thr:
        thr = [float(v) for t, k, v, md in ev if k == "throughput" and isinstance(v, (int, float))]
    starts, durs = {}, []
    for t, k, v, md in ev:
        n = md.get("epoch_num", v)
        if k == "epoch_start":
            starts.setdefault(n, t)
        elif k == "epoch_stop" and n in starts:
            durs.append((n, t - starts[n]))
    durs.sort(key=lambda x: (x[0] if isinstance(x[0], (int, float)) else 0))
    d = [x for _, x in durs]
    if len(d) > 3:
        d = d[1:]
    ep = median(d)
    method = "epoch"
    if ep is None:  # block-based fallback
        bs, bd = {}, []
        for t, k, v, md in ev:
            n = md.get("first_epoch_num")
            if k == "block_start":
                bs[n] = (t, md.get("epoch_count") or 1)
            elif k == "block_stop" and n in bs:
                bd.append((t - bs[n][0]) / bs[n][1])
        ep = median(bd)
        method = "block"
    ts = [t for t, k, v, md in ev if k == "run_start"]
    te = [t for t, k, v, md in ev if k == "run_stop"]
    status = next((md.get("status") for t, k, v, md in ev if k == "run_stop"), None)
    return dict(gbs=gbs, dbs=dbs, tracked=median(thr), epoch_s=ep, method=method,
                epoch_thr=(train_images / ep) if ep else None,
                ttt_min=((te[0] - ts[0]) / 60) if ts and te else None, status=status,
                platform=get("submission_platform"), entry=get("submission_entry"))


def sysinfo(repo, org, system, entry):
    for cand in (f"{org}/systems/{system}.json",):
        txt = git(repo, "show", "HEAD:" + cand)
        if txt:
            try:
                j = {k.strip().lower().replace(" ", "_"): v for k, v in json.loads(txt).items()}
                n = int(str(j.get("number_of_nodes", "1")).strip() or 1)
                a = int(str(j.get("accelerators_per_node", "0")).strip() or 0)
                acc = j.get("accelerator_model_name", "")
                mem = str(j.get("accelerator_memory_capacity", "")).replace(" ", "")
                if mem and not re.search(r"\d+\s*GB", acc, re.I):
                    acc = f"{acc} [{mem}]"
                return n, a, acc, j.get("framework", "")
            except Exception:
                pass
    if entry:  # v0.6: submission_entry is a python-literal dict
        try:
            d = ast.literal_eval(entry)
            nodes = ast.literal_eval(d["nodes"])
            return int(nodes["num_nodes"]), int(nodes["num_accelerators"]), nodes.get("accelerator", ""), d.get("framework", "")
        except Exception:
            pass
    return None, None, "", ""


def cluster_of(org, system, acc):
    s, a = system.lower(), acc.lower()
    if org == "NVIDIA" or s.startswith("dgx"):
        if s.startswith("dgxh100"):
            return "dgx-h100"
        if s.startswith("dgxa100"):
            return "dgx-a100"
        if s.startswith("dgx2h"):
            return "dgx-2h (v100-sxm3-32gb-h 450w)"
        if s.startswith("dgx2"):
            return "dgx-2 (v100-sxm3-32gb)"
        if s.startswith("dgx1"):
            return "dgx-1v100-32gb" if "32" in a else "dgx-1v100-16gb"
    m = re.search(r"(a100|a30|a40|v100s?|h100)", a)
    if not m:
        return a or "?"
    kind = m.group(1)
    ff = "pcie" if "pcie" in a else ("sxm" if "sxm" in a else "")
    if not ff and kind == "v100" and "[" in a:
        ff = "sxm"  # Fujitsu gx: 'Nvidia Tesla V100', 6x NVLink mesh (SXM2)
    mm = re.search(r"(\d+)\s*g", a.split("(")[0] if "[" not in a else a)
    mem = (mm.group(1) + "gb") if mm else ""
    return "-".join(x for x in (kind, ff, mem) if x)


def framework_of(system, fw):
    for f in ("pytorch", "mxnet", "tensorflow"):
        if f in system.lower() or f in (fw or "").lower():
            return {"pytorch": "PyTorch", "mxnet": "MXNet", "tensorflow": "TensorFlow"}[f]
    return fw or "?"


def main():
    out = sys.argv[1]
    repos = sys.argv[2:]
    rows = {"ssd": [], "maskrcnn": []}
    seen_blobs, seen_vals = {}, {}
    for repo in repos:
        ver = re.search(r"training_results_(v[\d.]+)", repo).group(1)
        blob = {}
        for ln in git(repo, "ls-tree", "-r", "HEAD").splitlines():
            meta, path = ln.split("\t", 1)
            blob[path] = meta.split()[2]
        groups = {}
        for f in blob:
            m = re.match(r"([^/]+)/results/([^/]+)/(ssd|maskrcnn)/result_\d+\.txt$", f)
            if m:
                groups.setdefault(m.groups(), []).append(f)
        for (org, system, bench), fl in sorted(groups.items()):
            if bench == "ssd" and ver >= "v2.0":
                continue  # RetinaNet from v2.0 on
            if "tpu" in system.lower():
                continue  # not GPUs
            res = [analyse(parse_log(git(repo, "show", "HEAD:" + f)), COCO_TRAIN) for f in sorted(fl)]
            missing = sum(1 for r in res if r["gbs"] is None and r["epoch_thr"] is None and r["tracked"] is None)
            res = [r for r in res if not (r["gbs"] is None and r["epoch_thr"] is None and r["tracked"] is None)]
            entry = next((r["entry"] for r in res if r["entry"]), None)
            nodes, apn, acc, fw = sysinfo(repo, org, system, entry)
            gpus = nodes * apn if nodes and apn else None
            eval_gpus = DEDICATED_EVAL.get((ver, system), 0)
            sys_gpus = gpus
            if gpus:
                gpus -= eval_gpus
            gbs = median([r["gbs"] for r in res if r["gbs"]])
            dbs = median([r["dbs"] for r in res if r["dbs"]])
            if gpus is None and gbs and dbs:
                gpus = int(round(gbs / dbs))
            tracked = median([r["tracked"] for r in res if r["tracked"]])
            epoch = median([r["epoch_thr"] for r in res if r["epoch_thr"]])
            methods = sorted({r["method"] for r in res if r["epoch_thr"]})
            ttt = median([r["ttt_min"] for r in res if r["ttt_min"] and r["status"] in (None, "success")])
            chosen = tracked if tracked else epoch
            # the same logs re-published in a later round (v2.1 repeats some v2.0 entries)
            bset = frozenset(blob[f] for f in fl)
            vkey = (bench, org.lower(), system, round(tracked or 0, 1), round(epoch or 0, 1))
            dup = seen_blobs.get(bset) or (seen_vals.get(vkey) if (tracked or epoch) else None) or ""
            seen_blobs.setdefault(bset, ver)
            seen_vals.setdefault(vkey, ver)
            rows[bench].append(dict(
                ver=ver, org=org, system=system, framework=framework_of(system, fw), accelerator=acc,
                cluster=cluster_of(org, system, acc), nodes=nodes, system_gpus=sys_gpus,
                dedicated_eval_gpus=eval_gpus, gpus=gpus, global_batch=gbs,
                samples_per_gpu=(gbs / gpus) if gbs and gpus else None, d_batch_size=dbs,
                tracked_img_s=tracked, epoch_img_s=epoch, epoch_method="+".join(methods),
                tracked_over_epoch=(tracked / epoch) if tracked and epoch else None,
                images_per_s_per_gpu=(chosen / gpus) if chosen and gpus else None,
                basis="tracked_stats" if tracked else ("epoch" if epoch else ""),
                ttt_min_median=ttt, results=len(res), missing_logs=missing, duplicate_of=dup,
                files=f"mlcommons/training_results_{ver}: {org}/results/{system}/{bench}/result_*.txt"))
    for bench, rs in rows.items():
        fn = lambda x, d=1: "" if x is None else (f"{x:.{d}f}" if isinstance(x, float) else x)
        # detail
        cols = list(rs[0].keys())
        with open(os.path.join(out, f"mlperf-{bench}-detail.csv"), "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=cols, lineterminator="\n")
            w.writeheader()
            for r in rs:
                w.writerow({k: fn(v, 3 if k == "tracked_over_epoch" else 1) for k, v in r.items()})
        # summary (RetinaNet CSV columns)
        with open(os.path.join(out, f"mlperf-{bench}.csv"), "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["source", "system", "cluster", "gpus", "samples_per_gpu", "images_per_s_per_gpu", "results", "reference"])
            for r in rs:
                if r["images_per_s_per_gpu"] is None or r["duplicate_of"]:
                    continue
                spg = r["samples_per_gpu"]
                spg = (int(spg) if spg and abs(spg - round(spg)) < 1e-6 else (round(spg, 2) if spg else ""))
                ref = (f"{r['files']} (median over the results of the logged tracked_stats throughput, "
                       f"else {COCO_TRAIN:,} images over the median epoch; basis: {r['basis']}"
                       + f"; accelerator {r['accelerator']}"
                       + (f"; {r['system_gpus']} GPUs in the system, {r['dedicated_eval_gpus']} of them dedicated evaluation ranks, not counted" if r['dedicated_eval_gpus'] else "")
                       + (f"; {r['missing_logs']} result logs absent from the mirror (>=4 MiB)" if r['missing_logs'] else "")
                       + ")")
                src = f"MLPerf Training {r['ver']} ({r['framework']})"
                if r["org"] != "NVIDIA":
                    src = f"MLPerf Training {r['ver']} ({r['framework']}, {r['org']})"
                w.writerow([src, r["system"], r["cluster"], r["gpus"], spg,
                            f"{r['images_per_s_per_gpu']:.1f}", r["results"], ref])


if __name__ == "__main__":
    main()
