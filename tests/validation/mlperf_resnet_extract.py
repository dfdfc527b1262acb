#!/usr/bin/env python3
"""Extract ResNet-50 training throughput from NVIDIA MLPerf Training result logs.

Reads the bare git mirrors of mlcommons/training_results_v* (fetched to
/work/.mirror/mlcommons+training_results_<round>/repo) with `git show`, parses
the `:::MLLOG {...}` lines of NVIDIA/results/<system>/resnet/result_*.txt, the
system description NVIDIA/systems/<system>.json and the matching config
NVIDIA/benchmarks/resnet/implementations/<impl>/config_*.sh.

Per result file it computes
  * per-epoch durations = epoch_stop.time_ms - epoch_start.time_ms (same epoch_num);
    epochs that belong to the FIRST block (block_start first_epoch_num=1 ..
    epoch_count) are excluded; eval is NOT inside epoch_start/epoch_stop in
    these logs (eval_start comes after epoch_stop), so no eval time is included.
  * ts_median_ips = 1,281,167 / median(epoch duration)
  * logged_median_ips = median of the per-epoch throughput the code itself logs
    (`tracked_stats` {"throughput"|"imgs_sec"} or key `throughput`), same epochs.
    The code computes it as args.num_examples(=1,281,167)/(toc-tic) around the
    epoch loop, i.e. the same quantity as ts_median_ips.
  * agg_train_ips = n_epochs*1,281,167 / sum(epoch durations)   (same epochs)
  * agg_wall_ips  = n_epochs*1,281,167 / (last epoch_stop - first counted epoch_start)
    (wall clock incl. eval and inter-epoch gaps)
  * speedometer_median = median of MXNet Speedometer "Speed: X samples/sec"
    lines (rank 0, global batch, 20-iteration windows) over epochs not in the
    first block (only v0.7/v1.0 logs have these for every window).
  * ttt_min = (run_stop - run_start)/60000
Per system: medians over result files.
"""
import json, math, os, re, statistics, subprocess, sys, csv

# usage: mlperf_resnet_extract.py MIRROR_DIR OUT_DIR (bare git mirrors named
# mlcommons+training_results_<round>/repo under MIRROR_DIR)
MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"
OUT = sys.argv[2] if len(sys.argv) > 2 else "."
N_TRAIN = 1281167
# log keys whose value a run keeps as it is, and the name it keeps it under
LOGGED_VALUES = {"submission_org": "org", "global_batch_size": "global_batch",
                 "submission_platform": "platform", "d_batch_size": "d_batch",
                 "opt_name": "opt", "s_optimizer": "s_optimizer"}
ROUNDS = ["v0.7", "v1.0", "v1.1", "v2.0", "v2.1", "v3.0", "v3.1", "v4.0"]
# submitter directories scanned per round (v3.0: the 3,584-GPU H100 run was submitted as
# "NVIDIA+CoreWeave" under NVIDIA_CoreWeave/; the same runs are re-listed under NVIDIA/ in v3.1 and v4.0)
SUBDIRS = {"v3.0": ["NVIDIA", "NVIDIA_CoreWeave"]}


def gitdir(rnd):
    return f"{MIRROR}/mlcommons+training_results_{rnd}/repo"


def git(rnd, *args):
    return subprocess.run(["git", "--git-dir", gitdir(rnd), *args],
                          capture_output=True, text=True, errors="replace").stdout


def head(rnd):
    return git(rnd, "rev-parse", "HEAD").strip()


def ls(rnd):
    return git(rnd, "ls-tree", "-r", "--name-only", "HEAD").splitlines()


def show(rnd, path):
    r = subprocess.run(["git", "--git-dir", gitdir(rnd), "show", f"HEAD:{path}"],
                       capture_output=True, text=True, errors="replace")
    return r.stdout if r.returncode == 0 else None


SPEED_RE = re.compile(r"Epoch\[(\d+)\] Batch \[(\d+)-(\d+)\]\s+Speed: ([0-9.]+) samples/sec")


def parse_log(text):
    ev = []
    speeds = []  # (epoch0, speed)
    for line in text.splitlines():
        i = line.find(":::MLLOG ")
        if i >= 0:
            try:
                d = json.loads(line[i + 9:])
            except Exception:
                continue
            ev.append(d)
            continue
        m = SPEED_RE.search(line)
        if m:
            speeds.append((int(m.group(1)), float(m.group(4))))
    out = {"org": None, "global_batch": None, "platform": None, "d_batch": None, "opt": None,
           "s_optimizer": None, "run_start": None, "run_stop": None, "status": None,
           "epochs": {}, "blocks": [], "bstops": [], "logged_tp": [], "evals": []}
    estart = {}
    pending_epoch = None
    for d in ev:
        k, t, v, md = d.get("key"), d.get("time_ms"), d.get("value"), d.get("metadata", {}) or {}
        if k in LOGGED_VALUES:
            out[LOGGED_VALUES[k]] = v
        elif k == "run_start" and out["run_start"] is None:
            out["run_start"] = t
        elif k == "run_stop":
            out["run_stop"] = t
            out["status"] = md.get("status")
        elif k == "epoch_start":
            estart[md["epoch_num"]] = t
        elif k == "epoch_stop":
            e = md["epoch_num"]
            if e in estart:
                out["epochs"][e] = (estart[e], t)
            pending_epoch = e
        elif k == "block_stop":
            out["bstops"].append((md.get("first_epoch_num"), t))
        elif k == "block_start":
            out["blocks"].append((md.get("first_epoch_num"), md.get("epoch_count"), t))
        elif k == "eval_start":
            out["evals"].append(("s", md.get("epoch_num"), t))
        elif k == "eval_stop":
            out["evals"].append(("e", md.get("epoch_num"), t))
        elif k in ("tracked_stats", "throughput"):
            val = v
            if isinstance(v, dict):
                val = v.get("throughput", v.get("imgs_sec"))
            if val is None:
                continue
            step = md.get("step", pending_epoch)
            # avoid double counting: v2.1 preview logs print both tracked_stats and throughput
            if any(s == step for s, _ in out["logged_tp"]):
                continue
            out["logged_tp"].append((step, float(val)))
    out["speeds"] = speeds
    return out


def analyze(p):
    first_block = set()
    if p["blocks"]:
        fe, cnt, _ = p["blocks"][0]
        if fe is not None and cnt is not None:
            first_block = set(range(fe, fe + cnt))
    if not first_block:
        first_block = {1}
    eps = sorted(e for e in p["epochs"] if e not in first_block)
    durs = [(p["epochs"][e][1] - p["epochs"][e][0]) / 1000.0 for e in eps]
    r = {"n_epochs_total": max(p["epochs"]) if p["epochs"] else 0,
         "n_epochs_used": len(eps), "first_block_epochs": sorted(first_block)}
    if durs:
        med = statistics.median(durs)
        r["median_epoch_s"] = med
        r["ts_median_ips"] = N_TRAIN / med
        r["agg_train_ips"] = len(durs) * N_TRAIN / sum(durs)
        wall = (p["epochs"][eps[-1]][1] - p["epochs"][eps[0]][0]) / 1000.0
        r["agg_wall_ips"] = len(eps) * N_TRAIN / wall
        r["min_epoch_s"], r["max_epoch_s"] = min(durs), max(durs)
    # block-synchronised measurement: block_start -> eval_start of the block's last
    # epoch (from v1.0/v1.1 on the code calls mx.ndarray.waitall() right before
    # eval_start, so this interval contains all GPU work of the block's epochs and
    # no eval); and block_start -> block_stop (wall clock incl. eval).
    bl_train, bl_wall, bl_epochs = [], [], 0
    evs = [e for e in p["evals"] if e[0] == "s"]
    bstops = p["bstops"]
    for bi, (fe, cnt, t0) in enumerate(p["blocks"]):
        if bi == 0 or fe is None or cnt is None:
            continue
        last = fe + cnt - 1
        es = [t for _, en, t in evs if en == last and t >= t0]
        bs = [t for en, t in bstops if en == fe and t >= t0]
        if not es or not all(e in p["epochs"] for e in range(fe, fe + cnt)):
            continue
        bl_train.append(cnt * N_TRAIN / ((es[0] - t0) / 1000.0))
        bl_epochs += cnt
        if bs:
            bl_wall.append(cnt * N_TRAIN / ((bs[0] - t0) / 1000.0))
    if bl_train:
        r["block_train_ips"] = statistics.median(bl_train)
        r["n_blocks"] = len(bl_train)
        r["block_epochs"] = bl_epochs
    if bl_wall:
        r["block_wall_ips"] = statistics.median(bl_wall)
    tp = [v for s, v in p["logged_tp"] if s is not None and s not in first_block]
    if tp:
        r["logged_median_ips"] = statistics.median(tp)
        r["n_logged"] = len(tp)
    # speedometer: MXNet epoch index is 0-based -> mlperf epoch_num = idx+1
    sp = [v for e0, v in p["speeds"] if (e0 + 1) not in first_block]
    if sp:
        r["speedometer_median"] = statistics.median(sp)
        r["n_speed"] = len(sp)
    r["last_epoch"] = max(p["epochs"]) if p["epochs"] else None
    if p["run_start"] and p["run_stop"]:
        r["ttt_min"] = (p["run_stop"] - p["run_start"]) / 60000.0
    r["status"] = p["status"]
    return r


def parse_cfg(text):
    d = {}
    text = re.sub(r"\s+#.*$", "", text, flags=re.M)
    for m in re.finditer(r'^\s*export\s+(\w+)=\$?\{?[^"\n]*?"?([^"\n}]*)"?\}?\s*(#.*)?$', text, re.M):
        d[m.group(1)] = m.group(2)
    # handle ${VAR:-"x"}
    for m in re.finditer(r'^\s*export\s+(\w+)=\$\{\w+:-"?([^"}]*)"?\}', text, re.M):
        d[m.group(1)] = m.group(2)
    return d


def find_config(rnd, files, system, nodes, dbatch):
    """Return path of the config whose DGXNNODES and BATCHSIZE match the run."""
    cands = [f for f in files if "/benchmarks/resnet/implementations/" in f
             and os.path.basename(f).startswith("config_") and "common" not in f]
    # v4.0: one implementation directory per system
    per_sys = [f for f in cands if f"/implementations/{system}/" in f]
    if per_sys:
        cands = per_sys
    elif "preview" in system:
        cands = [f for f in cands if "mxnet-preview" in f]
    elif rnd == "v2.1":
        cands = [f for f in cands if "mxnet-22.04" in f]
    want_accel = "H100" if "h100" in system.lower() or system.startswith("eos") or "h200" in system else None
    best = []
    for f in cands:
        c = parse_cfg(show(rnd, f) or "")
        try:
            n = int(c.get("DGXNNODES", "0"))
            b = int(c.get("BATCHSIZE", "0"))
        except ValueError:
            continue
        if n == nodes and b == dbatch:
            best.append(f)
    if len(best) > 1:
        if "dgx1" in system:
            best = [f for f in best if "DGX1" in f] or best
        elif "dgx2" in system:
            best = [f for f in best if "DGX2" in f] or best
        elif "a30" in system:
            best = [f for f in best if "A30" in f] or best
        elif "l40s" in system:
            best = [f for f in best if "L40S" in f] or best
        elif want_accel:
            best = [f for f in best if "H100" in f] or best
        else:
            best = [f for f in best if "DGXA100" in f] or best
    return best


def main():
    rows = []
    per_file = []
    for rnd in ROUNDS:
        files = ls(rnd)
        commit = head(rnd)
        systems = sorted({(f.split("/")[0], f.split("/")[2]) for f in files
                          if re.match(r"[^/]+/results/[^/]+/resnet/result_\d+\.txt$", f)
                          and f.split("/")[0] in SUBDIRS.get(rnd, ["NVIDIA"])})
        for sub, sysname in systems:
            sj = show(rnd, f"{sub}/systems/{sysname}.json")
            sj = json.loads(sj) if sj else {}
            nodes = int(sj.get("number_of_nodes", 0) or 0)
            gpn = int(sj.get("accelerators_per_node", 0) or 0)
            res = sorted(f for f in files if f.startswith(f"{sub}/results/{sysname}/resnet/result_"))
            anal, parsed_ok, missing = [], [], []
            meta = {}
            for f in res:
                txt = show(rnd, f)
                if txt is None:
                    missing.append(f)
                    continue
                p = parse_log(txt)
                a = analyze(p)
                a["file"] = f
                for k in ("org", "global_batch", "platform", "d_batch", "opt", "s_optimizer"):
                    if p[k] is not None:
                        meta[k] = p[k]
                anal.append(a)
                per_file.append(dict(round=rnd, system=sysname, **{k: v for k, v in a.items() if k != "first_block_epochs"},
                                     first_block=",".join(map(str, a["first_block_epochs"]))))
            gpus = nodes * gpn
            gb = meta.get("global_batch")
            dbatch = meta.get("d_batch") or (gb // gpus if gb and gpus else None)
            cfg = find_config(rnd, [f for f in files if f.startswith(sub + "/")], sysname, nodes, dbatch) if dbatch else []
            def med(key):
                vals = [a[key] for a in anal if key in a]
                return (statistics.median(vals), len(vals)) if vals else (None, 0)
            row = dict(round=rnd, submitter_dir=sub, submitter_org=meta.get("org"), system=sysname, commit=commit,
                       accelerator=sj.get("accelerator_model_name", ""),
                       nodes=nodes, gpus=gpus, gpus_per_node=gpn,
                       framework=sj.get("framework", ""), global_batch=gb,
                       batch_per_gpu=dbatch, optimizer=meta.get("opt"),
                       s_optimizer=meta.get("s_optimizer"),
                       n_files=len(anal), missing_files=len(missing),
                       config=";".join(cfg), result_files=";".join(a["file"] for a in anal) or ";".join(missing))
            ttts = sorted(a["ttt_min"] for a in anal if "ttt_min" in a)
            row["ttt_olympic_mean_min"] = statistics.mean(ttts[1:-1]) if len(ttts) >= 3 else None
            # MLPerf scoring: non-converged ("aborted") runs count as infinitely slow, then drop
            # fastest and slowest of the 5 and average the remaining 3
            sc = sorted(a["ttt_min"] if a.get("status") == "success" else float("inf")
                        for a in anal if "ttt_min" in a)
            row["ttt_mlperf_score_min"] = statistics.mean(sc[1:-1]) if len(sc) == 5 and sc[3] != float("inf") else None
            row["ttt_all_min"] = " ".join(f"{x:.3f}" for x in ttts)
            row["median_epochs_run"] = statistics.median([a["last_epoch"] for a in anal if a.get("last_epoch")]) if anal else None
            row["status_all"] = " ".join(str(a.get("status")) for a in anal)
            knobs = {}
            if cfg:
                cdir = os.path.dirname(cfg[0])
                for cf in [cdir + "/config_DGXA100_common.sh", cfg[0]]:
                    knobs.update(parse_cfg(show(rnd, cf) or ""))
            row["cfg_knobs"] = " ".join(f"{k}={knobs[k]}" for k in (
                "OPTIMIZER", "BATCHSIZE", "NUMEPOCHS", "BN_GROUP", "E2E_CUDA_GRAPHS", "MXNET_ENABLE_CUDA_GRAPHS",
                "SBATCH_NETWORK", "NCCL_COLLNET_ENABLE", "DALI_HW_DECODER_LOAD", "DALI_CACHE_SIZE",
                "INPUT_BATCH_MULTIPLIER", "USE_NVSHMEM") if k in knobs)
            for key in ("block_train_ips", "block_wall_ips", "ts_median_ips", "logged_median_ips", "agg_train_ips", "agg_wall_ips",
                        "speedometer_median", "median_epoch_s", "ttt_min"):
                row[key], row["n_" + key] = med(key)
            if gb and gpus:
                steps = math.ceil(int(N_TRAIN / gpus) / dbatch)
                row["steps_per_epoch"] = steps
                row["imgs_processed_per_epoch"] = steps * gb
                if row.get("block_train_ips"):
                    row["images_per_s_per_gpu"] = row["block_train_ips"] / gpus
                    # samples actually pushed through the GPUs incl. DALI FILL padding of the last batch
                    row["processed_samples_per_s"] = row["block_train_ips"] * steps * gb / N_TRAIN
            rows.append(row)
    json.dump(rows, open(f"{OUT}/mlperf_resnet_systems.json", "w"), indent=1)
    write_outputs(rows)
    with open(f"{OUT}/mlperf_resnet_per_file.csv", "w", newline="") as fh:
        keys = sorted({k for r in per_file for k in r})
        keys = ["round", "system", "file"] + [k for k in keys if k not in ("round", "system", "file")]
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(per_file)
    for r in rows:
        print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()
                          if k not in ("commit", "result_files")}))


REPO = "mlcommons/training_results_{}"
# v2.1 A100 result files are byte-identical (same git blob ids) to the v2.0 ones and the v4.0
# coreweave n448 files contain the same runs (same MLLOG lines) as v3.1: kept in the detail
# file, left out of the main CSV. The coreweave n448 runs (run_start 2023-05-18) were first
# submitted in v3.0 by "NVIDIA+CoreWeave" (NVIDIA_CoreWeave/ dir); v3.1 and v4.0 re-list the same
# MLLOG lines (only submission_org/platform strings differ) under NVIDIA/.
DUPLICATES = {("v2.1", "dgxa100_ngc22.04_mxnet"), ("v2.1", "dgxa100_n8_ngc22.04_mxnet"),
              ("v2.1", "dgxa100_n128_ngc22.04_mxnet"), ("v2.1", "dgxa100_n527_ngc22.04_mxnet"),
              ("v3.1", "coreweave_hgxh100_n448_ngc23.04_mxnet"),
              ("v4.0", "coreweave_hgxh100_n448_ngc23.04_mxnet")}


def write_outputs(rows):
    main_cols = ["round", "system", "accelerator", "nodes", "gpus", "gpus_per_node", "framework",
                 "precision", "batch_per_gpu", "global_batch", "images_per_s", "seconds_per_epoch",
                 "time_to_train_min", "method", "source"]
    out, det = [], []
    for r in rows:
        d = dict(r)
        d["duplicate_of_other_round"] = (r["round"], r["system"]) in DUPLICATES
        det.append(d)
        if not r["n_files"] or d["duplicate_of_other_round"]:
            continue
        ips = r["block_train_ips"]
        notes = [f"block_sync: per block after the first, epoch_count*1281167/(eval_start - block_start) "
                 f"(eval excluded), median over {r['n_block_train_ips']} files of per-file median over blocks"]
        if r.get("logged_median_ips"):
            dev = 100 * (r["logged_median_ips"] / ips - 1)
            notes.append(f"logged per-epoch tracked_stats/throughput median={r['logged_median_ips']:.0f} ({dev:+.1f}%)")
        if r.get("speedometer_median"):
            dev = 100 * (r["speedometer_median"] / ips - 1)
            notes.append(f"no per-epoch throughput key; MXNet Speedometer median={r['speedometer_median']:.0f} ({dev:+.1f}%)")
        notes.append(f"epoch_start/stop median={r['ts_median_ips']:.0f} ({100*(r['ts_median_ips']/ips-1):+.1f}%)")
        notes.append(f"optimizer={r['optimizer']}" + (f"/{r['s_optimizer']}" if r.get("s_optimizer") else ""))
        commit = r["commit"]
        files = r["result_files"].split(";")
        src = (f"{REPO.format(r['round'])}@{commit}:" + os.path.dirname(files[0]) + "/result_{" +
               ",".join(os.path.basename(f)[7:-4] for f in files) + "}.txt")
        if r["config"]:
            src += f" ; config: {REPO.format(r['round'])}@{commit}:{r['config']}"
        src += f" ; system: {REPO.format(r['round'])}@{commit}:{r['submitter_dir']}/systems/{r['system']}.json"
        out.append({"round": r["round"], "system": r["system"],
                    "accelerator": r["accelerator"].replace("NVIDIA ", ""),
                    "nodes": r["nodes"], "gpus": r["gpus"], "gpus_per_node": r["gpus_per_node"],
                    "framework": r["framework"], "precision": "FP16 (MXNet --dtype float16; NHWC)",
                    "batch_per_gpu": r["batch_per_gpu"], "global_batch": r["global_batch"],
                    "images_per_s": round(ips), "seconds_per_epoch": round(N_TRAIN / ips, 4),
                    "time_to_train_min": round(r["ttt_min"], 3),
                    "method": "; ".join(notes), "source": src})
    with open(f"{OUT}/mlperf_resnet.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=main_cols)
        w.writeheader()
        w.writerows(out)
    dcols = [k for k in det[0].keys()]
    for d in det:
        for k in d:
            if k not in dcols:
                dcols.append(k)
    with open(f"{OUT}/mlperf_resnet_detail.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=dcols)
        w.writeheader()
        for d in det:
            w.writerow({k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()})


if __name__ == "__main__":
    main()
