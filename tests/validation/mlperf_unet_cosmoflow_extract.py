#!/usr/bin/env python3
"""Extract measured training throughput for MLPerf Training 3D U-Net (unet3d)
and MLPerf HPC CosmoFlow from the published result logs.

Inputs: bare git mirrors of the mlcommons results repositories under
/work/.mirror/mlcommons+<repo>/repo (brought in with the session's `fetch`
tool).  Everything is read with `git cat-file` / `git ls-tree` from HEAD.

Outputs (in OUT_DIR):
  mlperf_unet_cosmoflow.csv          one row per (round, system, benchmark[, scaling])
  mlperf_unet_cosmoflow_detail.csv   extra columns (alternative throughput
                                     definitions, run counts, staging, ...)
  mlperf_unet_cosmoflow_runs.csv     one row per result file (per run / instance)

Method (see the .md for the prose version)
-----------------------------------------
All :::MLLOG JSON records are parsed from every result file (exact duplicate
lines, which appear when several ranks log, are dropped).

unet3d: training is logged in blocks (block_start/block_stop with metadata
  first_epoch_num, epoch_count).  NVIDIA's code logs a `throughput` record at
  the end of the training iterations of each block, *before* any synchronous
  evaluation of that block (eval_start follows ~1 ms later); with asynchronous
  evaluation on dedicated nodes (ASYNC_PARAMS --nodes_for_eval) the eval
  records of the *previous* block are interleaved inside the next block
  while training continues.  Hence the training-only interval of a block is
  block_start -> `throughput` record of that block (or, in newer logs that
  have no `throughput` key, the `tracked_stats` record carrying
  {"throughput": ...}, which is emitted at the same point) (fallback when there is no
  throughput record: block_stop minus the eval_start..eval_stop time inside
  the block).  From Training v3.1 on the block metadata counts samples
  (epoch_count=3360 = 20 epochs x 168), detected automatically.  Samples in a block = epoch_count * samples_per_epoch (the log
  key `samples_per_epoch`; NVIDIA pads each epoch to a multiple of the global
  batch, e.g. 240 instead of 168 at global batch 80; falls back to
  train_samples).  Per run: median over blocks excluding the first block
  (contains warm-up / graph capture).  Per system: median over runs.
  Also reported: the same restricted to the second half of the blocks
  ("steady state"), the median of the logged `throughput` values, and the
  wall-clock rate block_start->block_stop (includes synchronous eval).

cosmoflow: per epoch the training-only interval is epoch_start -> eval_start
  (epoch_num metadata).  Samples = train_samples.  First epoch excluded,
  median over epochs, then median over result files (for weak scaling a
  result file is one model instance).

Only blocks/epochs that finish before the first run_stop record are used
(some logs continue training after run_stop).

time_to_train: run_stop - run_start of runs whose run_stop status is
  success (for HPC this includes data staging, as in the MLPerf HPC rules).
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys
from collections import OrderedDict

# usage: mlperf_unet_cosmoflow_extract.py MIRROR_DIR OUT_DIR
MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"
OUT = sys.argv[2] if len(sys.argv) > 2 else "."

MLLOG_RE = re.compile(r":::MLLOG (\{.*\})\s*$")


def git(repo, *args):
    gd = os.path.join(MIRROR, "mlcommons+" + repo, "repo")
    return subprocess.run(["git", "--git-dir=" + gd] + list(args), check=True,
                          capture_output=True).stdout.decode("utf-8", "replace")


_head = {}


def head(repo):
    if repo not in _head:
        _head[repo] = git(repo, "rev-parse", "HEAD").strip()
    return _head[repo]


def ls(repo, prefix):
    out = git(repo, "ls-tree", "-r", "--name-only", "HEAD", "--", prefix)
    return [l for l in out.splitlines() if l]


def show(repo, path):
    return git(repo, "cat-file", "-p", "HEAD:" + path)


def parse_mllog(text):
    seen = set()
    recs = []
    for line in text.splitlines():
        m = MLLOG_RE.search(line)
        if not m:
            continue
        js = m.group(1)
        if js in seen:
            continue
        seen.add(js)
        try:
            d = json.loads(js)
        except json.JSONDecodeError:
            continue
        recs.append(d)
    recs.sort(key=lambda d: d["time_ms"])  # stable: keeps log order for ties
    return recs


def first(recs, key):
    for d in recs:
        if d["key"] == key:
            return d
    return None


def run_stop_time(recs):
    """time of the first run_stop (some logs keep training after it, e.g. the
    HPC v3.0 NVIDIA CosmoFlow logs continue with lr=0 for power/throughput runs)."""
    for d in recs:
        if d["key"] == "run_stop":
            return d["time_ms"]
    return float("inf")


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def run_times(recs):
    rs = first(recs, "run_start")
    stops = [d for d in recs if d["key"] == "run_stop"]
    if not rs or not stops:
        return None, None
    st = stops[-1]
    status = st.get("metadata", {}).get("status")
    return (st["time_ms"] - rs["time_ms"]) / 60000.0, status


def logged(recs, **names):
    """The value of each log key's first record (None when absent), by name."""
    return {name: (first(recs, key) or {}).get("value") for name, key in names.items()}


# ----------------------------------------------------------------- unet3d
def unet_run(text):
    recs = parse_mllog(text)
    r = logged(recs, gbs="global_batch_size", train_samples="train_samples",
               samples_per_epoch="samples_per_epoch", platform="submission_platform",
               ga="gradient_accumulation_steps")
    r["ttt_min"], r["status"] = run_times(recs)
    spe = r["samples_per_epoch"] or r["train_samples"]
    blocks = []
    cur = None
    for d in recs:
        k = d["key"]
        md = d.get("metadata", {})
        if k == "block_start":
            cur = {"t0": d["time_ms"], "n_ep": md.get("epoch_count"), "thr_t": None,
                   "thr_v": None, "evals": [], "ev0": None}
        elif cur is None:
            continue
        elif k == "throughput" and cur["thr_t"] is None:
            cur["thr_t"] = d["time_ms"]
            cur["thr_v"] = d["value"]
        elif (k == "tracked_stats" and cur["thr_t"] is None and isinstance(d["value"], dict)
              and "throughput" in d["value"]):
            # newer NVIDIA logs (>= v2.x/v3.0) only have throughput inside tracked_stats
            cur["thr_t"] = d["time_ms"]
            cur["thr_v"] = d["value"]["throughput"]
        elif k == "eval_start":
            cur["ev0"] = d["time_ms"]
        elif k == "eval_stop" and cur["ev0"] is not None:
            cur["evals"].append(d["time_ms"] - cur["ev0"])
            cur["ev0"] = None
        elif k == "block_stop":
            cur["t1"] = d["time_ms"]
            blocks.append(cur)
            cur = None
    # run_stop may arrive inside an unfinished block: ignore that block
    # From Training v3.1 on, NVIDIA's unet3d logs epoch_num/first_epoch_num/epoch_count
    # in *samples* (e.g. epoch_count 3360 = 20 epochs x 168) instead of epochs.
    in_samples = bool(blocks) and bool(spe) and all(
        b["n_ep"] and b["n_ep"] >= spe and b["n_ep"] % spe == 0 for b in blocks)
    r["epoch_unit"] = "samples" if in_samples else "epochs"
    cutoff = run_stop_time(recs)
    r["blocks_after_run_stop"] = sum(1 for b in blocks if (b["thr_t"] or b["t1"]) > cutoff)
    out = []
    for b in blocks:
        if not b["n_ep"] or not spe:
            continue
        if (b["thr_t"] or b["t1"]) > cutoff:
            continue
        n = b["n_ep"] if in_samples else b["n_ep"] * spe
        if in_samples:
            b["n_ep"] = b["n_ep"] // spe
        if b["thr_t"] is not None:
            t_train = (b["thr_t"] - b["t0"]) / 1000.0
        else:
            t_train = (b["t1"] - b["t0"] - sum(b["evals"])) / 1000.0
        t_wall = (b["t1"] - b["t0"]) / 1000.0
        out.append({"n_ep": b["n_ep"], "samples": n,
                    "sps_train": n / t_train if t_train > 0 else None,
                    "sps_wall": n / t_wall if t_wall > 0 else None,
                    "thr_logged": b["thr_v"], "sync_eval": bool(b["evals"]) and b["thr_t"] is not None
                    and any(True for _ in b["evals"])})
    r["n_blocks"] = len(out)
    body = out[1:]
    r["sps"] = med([b["sps_train"] for b in body])
    half = body[len(body) // 2:]
    r["sps_steady"] = med([b["sps_train"] for b in half])
    r["sps_wall"] = med([b["sps_wall"] for b in body])
    r["thr_logged"] = med([b["thr_logged"] for b in body])
    r["epochs_per_block"] = med([b["n_ep"] for b in out])
    # last epoch reached
    ep = [d.get("metadata", {}).get("epoch_num") for d in recs if d["key"] == "eval_accuracy"]
    r["last_eval_epoch"] = ep[-1] if ep else None
    if in_samples and r["last_eval_epoch"]:
        r["last_eval_epoch"] = r["last_eval_epoch"] / spe
    # command line of main.py (batch size, spatial group size, eval nodes, precision flags)
    m = re.search(r"python -u main\.py ([^\n]*)", text)
    r["cmd"] = m.group(1).strip() if m else ""
    return r


def argval(cmd, *names):
    for n in names:
        m = re.search(r"(?:^|\s)" + re.escape(n) + r"[ =](\S+)", cmd)
        if m:
            return m.group(1)
    return None


# -------------------------------------------------------------- cosmoflow
def cosmo_run(text):
    recs = parse_mllog(text)
    r = logged(recs, gbs="global_batch_size", train_samples="train_samples",
               eval_samples="eval_samples", platform="submission_platform",
               nodes_inst="number_of_nodes", acc_per_node="accelerators_per_node")
    r["ttt_min"], r["status"] = run_times(recs)
    ss = first(recs, "staging_stop")
    sst = first(recs, "staging_start")
    r["staging_s"] = None
    if ss is not None:
        r["staging_s"] = ss.get("metadata", {}).get("staging_duration")
        if r["staging_s"] is None and sst is not None:
            r["staging_s"] = (ss["time_ms"] - sst["time_ms"]) / 1000.0
    rs = first(recs, "run_start")
    r["staging_in_run"] = (sst is not None and rs is not None and sst["time_ms"] >= rs["time_ms"])
    ep_start, ev_start, ep_stop, thr = {}, {}, {}, {}
    for d in recs:
        md = d.get("metadata", {})
        e = md.get("epoch_num")
        if e is None:
            continue
        k = d["key"]
        if k == "epoch_start":
            ep_start.setdefault(e, d["time_ms"])
        elif k == "eval_start":
            ev_start.setdefault(e, d["time_ms"])
        elif k == "epoch_stop":
            ep_stop.setdefault(e, d["time_ms"])
        elif k == "throughput":
            thr.setdefault(e, d["value"])
        elif k == "tracked_stats" and isinstance(d["value"], dict) and "throughput" in d["value"]:
            thr.setdefault(e, d["value"]["throughput"])
    n = r["train_samples"]
    cutoff = run_stop_time(recs)
    r["epochs_after_run_stop"] = sum(1 for e in ev_start if ev_start[e] > cutoff)
    per = []
    for e in sorted(ep_start):
        if e in ev_start and ev_start[e] <= cutoff:
            t = (ev_start[e] - ep_start[e]) / 1000.0
            w = (ep_stop[e] - ep_start[e]) / 1000.0 if e in ep_stop else None
            per.append((e, n / t if t > 0 else None, (n / w) if w else None, t, thr.get(e)))
    r["n_epochs"] = len(per)
    body = [p for p in per if p[0] != min(ep_start)] if per else []
    r["sps"] = med([p[1] for p in body])
    r["sps_wall"] = med([p[2] for p in body])
    r["sec_train_epoch"] = med([p[3] for p in body])
    r["thr_logged"] = med([p[4] for p in body])
    half = body[len(body) // 2:]
    r["sps_steady"] = med([p[1] for p in half])
    return r


# ------------------------------------------------------------------ targets
def sysjson(repo, org, system):
    p = "%s/systems/%s.json" % (org, system)
    try:
        return json.loads(show(repo, p)), p
    except Exception:
        return {}, None


I1 = "NVIDIA/benchmarks/unet3d/implementations/"
UNET = [
    # (repo, results dir, launch config used for that system; chosen by name:
    #  config_<SYSTEM>_<nodes>x<gpus>x<batch>.sh, see the implementation README)
    ("training_results_v1.0", "NVIDIA/results/dgxa100_ngc21.05_mxnet/unet3d", I1 + "mxnet/config_DGXA100_conv-dali_1x8x7.sh"),
    ("training_results_v1.0", "NVIDIA/results/dgxa100_n13_ngc21.05_mxnet/unet3d", I1 + "mxnet/config_DGXA100_conv-dali_13x8x1.sh"),
    ("training_results_v1.0", "NVIDIA/results/dgxa100_n100_ngc21.05_mxnet/unet3d", I1 + "mxnet/config_DGXA100_static_100x8x1.sh"),
    ("training_results_v1.1", "NVIDIA/results/dgxa100_ngc21.09_mxnet/unet3d", I1 + "mxnet/config_DGXA100_1x8x7.sh"),
    ("training_results_v1.1", "NVIDIA/results/dgxa100_n9_ngc21.09_mxnet/unet3d", I1 + "mxnet/config_DGXA100_9x8x1.sh"),
    ("training_results_v1.1", "NVIDIA/results/dgxa100_n96_ngc21.09_mxnet/unet3d", I1 + "mxnet/config_DGXA100_96x8x1.sh"),
    ("training_results_v2.0", "NVIDIA/results/dgxa100_ngc22.04_mxnet/unet3d", I1 + "mxnet/config_DGXA100_1x8x7.sh"),
    ("training_results_v2.0", "NVIDIA/results/dgxa100_n9_ngc22.04_mxnet/unet3d", I1 + "mxnet/config_DGXA100_9x8x1.sh"),
    ("training_results_v2.0", "NVIDIA/results/dgxa100_n96_ngc22.04_mxnet/unet3d", I1 + "mxnet/config_DGXA100_96x8x1.sh"),
    ("training_results_v2.1", "NVIDIA/results/dgxa100_ngc22.04_mxnet/unet3d", I1 + "mxnet-22.04/config_DGXA100_1x8x7.sh"),
    ("training_results_v2.1", "NVIDIA/results/dgxa100_n9_ngc22.04_mxnet/unet3d", I1 + "mxnet-22.04/config_DGXA100_9x8x1.sh"),
    ("training_results_v2.1", "NVIDIA/results/dgxa100_n96_ngc22.04_mxnet/unet3d", I1 + "mxnet-22.04/config_DGXA100_96x8x1.sh"),
    ("training_results_v2.1", "NVIDIA/results/dgxh100_preview/unet3d", I1 + "mxnet-preview/config_DGXH100_1x8x7.sh"),
    ("training_results_v2.1", "NVIDIA/results/dgxh100_n3_preview/unet3d", I1 + "mxnet-preview/config_DGXH100_3x8x1.sh"),
    ("training_results_v3.0", "NVIDIA/results/dgxh100_ngc23.04_mxnet/unet3d", I1 + "mxnet/config_DGXH100_1x8x7.sh"),
    ("training_results_v3.0", "NVIDIA/results/dgxh100_n9_ngc23.04_mxnet/unet3d", I1 + "mxnet/config_DGXH100_9x8x1.sh"),
    ("training_results_v3.0", "NVIDIA/results/dgxh100_n54_ngc23.04_mxnet/unet3d", I1 + "mxnet/config_DGXH100_54x8x1.sh"),
    ("training_results_v3.1", "NVIDIA/results/eos_ngc23.04_mxnet/unet3d", I1 + "mxnet/config_DGXH100_1x8x7.sh"),
    ("training_results_v3.1", "NVIDIA/results/eos_n9_ngc23.04_mxnet/unet3d", I1 + "mxnet/config_DGXH100_9x8x1.sh"),
    ("training_results_v3.1", "NVIDIA/results/eos_n96_ngc23.04_mxnet/unet3d", I1 + "mxnet/config_DGXH100_96x8x1.sh"),
    ("training_results_v4.0", "NVIDIA/results/eos_ngc24.04_mxnet/unet3d", I1 + "eos_ngc24.04_mxnet/config_DGXH100_1x8x7.sh"),
    ("training_results_v4.0", "NVIDIA/results/eos_n9_ngc24.04_mxnet/unet3d", I1 + "eos_n9_ngc24.04_mxnet/config_DGXH100_9x8x1.sh"),
    ("training_results_v4.0", "NVIDIA/results/eos_n96_ngc23.09_mxnet/unet3d", I1 + "eos_n96_ngc23.09_mxnet/config_DGXH100_96x8x1.sh"),
    ("training_results_v4.0", "NVIDIA/results/h200_ngc24.04_mxnet/unet3d", I1 + "h200_ngc24.04_mxnet/config_DGXH100_1x8x7.sh"),
]


def read_config(repo, path):
    """exported variables of a NVIDIA launch config (defaults of ${X:-default} resolved)."""
    env = {}
    for line in show(repo, path).splitlines():
        # top-level assignments only: indented ones sit inside if-blocks
        # (e.g. the MLPERF_POWER_TRAIN_AFTER_RUN_STOP override of EXTRA_PARAMS)
        m = re.match(r'export\s+(\w+)=(.*)$', line)
        if not m:
            continue
        k, v = m.group(1), m.group(2).strip()
        v = re.sub(r'\s+#.*$', '', v)
        mm = re.match(r'^"?\$\{\w+:-(.*)\}"?$', v)
        if mm:
            v = mm.group(1)
        env[k] = v.strip('"')
    return env

P_MX = "AMP FP16 (MXNet contrib.amp; DTYPE=amp -> --use-amp)"
P_PT = "AMP FP16 (torch.cuda.amp.autocast + GradScaler; amp: True)"
PREC = {
    "hpc_results_v1.0:NVIDIA": P_MX, "hpc_results_v2.0:NVIDIA": P_PT, "hpc_results_v3.0:NVIDIA": P_PT,
    "hpc_results_v3.0:HPE+LBNL": P_PT + " [uses NVIDIA submission_dgxa100_64x8x1.yaml]",
}
COSMO = [
    # (repo, results dir, primary?)  primary = NVIDIA submission
    ("hpc_results_v1.0", "NVIDIA/results/dgxa100_n16_ngc21.09_mxnet/strong/cosmoflow", True),
    ("hpc_results_v1.0", "NVIDIA/results/dgxa100_n128_ngc21.09_mxnet/strong/cosmoflow", True),
    ("hpc_results_v1.0", "NVIDIA/results/dgxa100_n512_ngc21.09_mxnet/weak/cosmoflow", True),
    ("hpc_results_v2.0", "NVIDIA/results/dgxa100_n64_pytorch/strong/cosmoflow", True),
    ("hpc_results_v2.0", "NVIDIA/results/dgxa100_n512_pytorch/weak/cosmoflow", True),
    ("hpc_results_v3.0", "NVIDIA/results/eos_n64_ngc23.09_pytorch/strong/cosmoflow", True),
    ("hpc_results_v3.0", "NVIDIA/results/eos_n256_ngc23.09_pytorch/weak/cosmoflow", True),
    # supplementary: other submitters' A100 systems (NVIDIA-derived MXNet/PyTorch code)
    ("hpc_results_v1.0", "LBNL/results/perlmutter_256x4_ngc21.09_mxnet/strong/cosmoflow", False),
    ("hpc_results_v1.0", "HelmholtzAI/results/juwelsbooster_gpu_n512_mxnet1.9/strong/cosmoflow", False),
    ("hpc_results_v1.0", "HelmholtzAI/results/juwelsbooster_gpu_n1024_mxnet1.9/strong/cosmoflow", False),
    ("hpc_results_v2.0", "HelmholtzAI/results/horeka_gpu_n512_pytorch1.13/strong/cosmoflow", False),
    ("hpc_results_v3.0", "HPE+LBNL/results/perlmutter_128x4/strong/cosmoflow", False),
]

COLS = ["benchmark", "round", "system", "accelerator", "nodes", "gpus", "gpus_per_node",
        "framework", "precision", "batch_per_gpu", "global_batch", "train_samples",
        "samples_per_s", "seconds_per_epoch", "time_to_train_min", "method", "source"]


def fmt(x, nd=1):
    if x is None:
        return ""
    if isinstance(x, float):
        return ("%." + str(nd) + "f") % x
    return str(x)


def result_files(repo, d):
    fs = [f for f in ls(repo, d) if re.search(r"result_\d+\.txt$", f)]
    return sorted(fs, key=lambda f: int(re.search(r"result_(\d+)\.txt$", f).group(1)))


def do_unet(rows, detail, runs):
    seen_logs = {}
    for repo, d, cfgp in UNET:
        org, _, system = d.split("/")[:3]
        cfg = read_config(repo, cfgp)
        sj, sjp = sysjson(repo, org, system)
        files = result_files(repo, d)
        rr = []
        sig = []
        for f in files:
            txt = show(repo, f)
            sig.append("\n".join(l for l in txt.splitlines() if ":::MLLOG" in l))
            r = unet_run(txt)
            r["file"] = f
            rr.append(r)
            runs.append({"benchmark": "unet3d", "round": repo, "system": system, "file": f,
                         "sps": fmt(r["sps"]), "sps_steady": fmt(r["sps_steady"]),
                         "sps_wall": fmt(r["sps_wall"]), "thr_logged": fmt(r["thr_logged"]),
                         "n_blocks": r["n_blocks"], "ttt_min": fmt(r["ttt_min"], 3),
                         "status": r["status"], "last_eval_epoch": r["last_eval_epoch"]})
        ok = [r for r in rr if r["status"] == "success"]
        nodes = int(sj.get("number_of_nodes") or 0) or None
        gpn = int(sj.get("accelerators_per_node") or 0) or None
        gpus = nodes * gpn if nodes and gpn else None
        cmd = rr[0]["cmd"]  # only v1.0 logs contain the main.py command line
        opts = " ".join([cfg.get("ASYNC_PARAMS", ""), cfg.get("EXTRA_PARAMS", ""), cfg.get("PRECISION", "")])
        bs = cfg.get("BATCH_SIZE") or cfg.get("BATCHSIZE")
        sgs = argval(opts, "-sgs")
        nfe = argval(opts, "--nodes_for_eval")
        if cmd:  # cross-check config vs. logged command line
            assert argval(cmd, "--batch_size") == bs, (cmd, bs)
            assert argval(cmd, "--nodes_for_eval") == nfe and argval(cmd, "-sgs") == sgs
        gbs = rr[0]["gbs"]
        spe = rr[0]["samples_per_epoch"]
        ts = rr[0]["train_samples"]
        prec = "FP16 (MXNet --static_cast, static loss scale %s)" % argval(opts, "-sls")
        if "--fp16in" in opts:
            prec += ", FP16 input"
        ucl = ("-ucl" in opts.split()) or ("--use_cached_loader" in opts)
        dup = None
        key = "\n".join(sig)
        if key in seen_logs:
            dup = seen_logs[key]
        else:
            seen_logs[key] = "%s:%s" % (repo, d)
        # consistency check of global batch vs. launch config
        if nodes and gpn and bs:
            tn = nodes - int(nfe or 0)
            exp_gbs = tn * gpn // int(sgs or 1) * int(bs)
            if exp_gbs != gbs:
                print("WARNING gbs mismatch", repo, system, exp_gbs, gbs, file=sys.stderr)
        sps = med([r["sps"] for r in rr])
        sec_ep = (spe or ts) / sps if sps else None
        ttts = [r["ttt_min"] for r in ok]
        ttt = med(ttts)
        olympic = None
        if len(ttts) > 2:
            s = sorted(ttts)[1:-1]
            olympic = sum(s) / len(s)
        train_nodes = (nodes - int(nfe)) if (nodes and nfe) else nodes
        meth = ("block_start->throughput-record per block (training only; eval excluded); "
                "samples=epoch_count*samples_per_epoch(%s); first block excluded; median over blocks, "
                "median over %d runs" % (spe, len(rr)))
        if nfe:
            meth += ("; async eval on %s dedicated nodes -> %d training nodes (%d GPUs)"
                     % (nfe, train_nodes, train_nodes * (gpn or 8)))
        if sgs:
            meth += "; spatial parallelism: each sample split over %s GPUs (-sgs %s)" % (sgs, sgs)
        meth += ("; training data cached in GPU memory (-ucl use_cached_loader)" if ucl else
                 "; training data read by DALI numpy reader from the mounted dataset dir (no -ucl)")
        meth += "; config %s" % cfgp.split("implementations/")[-1]
        if dup:
            meth += "; DUPLICATE: identical MLLOG records to %s (same runs republished)" % dup
        if spe and ts and spe != ts:
            meth += ("; epoch padded to %d samples (dataset 168): per-168-case rate = %.1f/s"
                     % (spe, sps * ts / spe if sps else float('nan')))
        row = OrderedDict(
            benchmark="unet3d", round="Training " + repo.split("_v")[-1].replace("results_", ""),
            system="%s/%s" % (org, system),
            accelerator=sj.get("accelerator_model_name", ""), nodes=nodes, gpus=gpus,
            gpus_per_node=gpn, framework="MXNet (system json: %s)" % sj.get("framework", "?"),
            precision=prec, batch_per_gpu=bs, global_batch=gbs, train_samples=ts,
            samples_per_s=fmt(sps), seconds_per_epoch=fmt(sec_ep, 3),
            time_to_train_min=fmt(ttt, 2), method=meth,
            source="mlcommons/%s@%s:%s/result_*.txt" % (repo, head(repo), d))
        rows.append(row)
        detail.append(OrderedDict(
            benchmark="unet3d", round=repo, system=system, files=len(rr), success=len(ok),
            samples_per_epoch=spe, epochs_per_block=rr[0]["epochs_per_block"],
            sps_train_median=fmt(sps), sps_train_steady_2nd_half=fmt(med([r["sps_steady"] for r in rr])),
            sps_block_or_epoch_wall=fmt(med([r["sps_wall"] for r in rr])),
            logged_throughput_median=fmt(med([r["thr_logged"] for r in rr])),
            sps_train_min_run=fmt(min(r["sps"] for r in rr if r["sps"])),
            sps_train_max_run=fmt(max(r["sps"] for r in rr if r["sps"])),
            ttt_median_min=fmt(ttt, 2), ttt_olympic_mean_min=fmt(olympic, 2),
            ttt_min_min=fmt(min(ttts), 2) if ttts else "", ttt_max_min=fmt(max(ttts), 2) if ttts else "",
            median_last_eval_epoch=fmt(med([r["last_eval_epoch"] for r in ok])),
            units_after_run_stop_total=sum(r["blocks_after_run_stop"] for r in rr),
            cmd=cmd or ("[from %s] %s" % (cfgp, opts.strip())), system_json=sjp or ""))
        print("unet3d", repo, system, len(rr), "runs", fmt(sps), file=sys.stderr)


def do_cosmo(rows, detail, runs):
    for repo, d, primary in COSMO:
        org, _, system, scaling = d.split("/")[:4]
        sj, sjp = sysjson(repo, org, system)
        files = result_files(repo, d)
        rr = []
        for f in files:
            r = cosmo_run(show(repo, f))
            r["file"] = f
            rr.append(r)
            runs.append({"benchmark": "cosmoflow", "round": repo, "system": system + "/" + scaling,
                         "file": f, "sps": fmt(r["sps"]), "sps_steady": fmt(r["sps_steady"]),
                         "sps_wall": fmt(r["sps_wall"]), "thr_logged": fmt(r["thr_logged"]),
                         "n_blocks": r["n_epochs"], "ttt_min": fmt(r["ttt_min"], 3),
                         "status": r["status"], "last_eval_epoch": r["n_epochs"]})
        ok = [r for r in rr if r["status"] == "success"]
        r0 = rr[0]
        nodes_total = int(sj.get("number_of_nodes") or 0) or None
        gpn = r0["acc_per_node"] or (int(sj.get("accelerators_per_node") or 0) or None)
        nodes_inst = r0["nodes_inst"] or nodes_total
        gpus_inst = nodes_inst * gpn if nodes_inst and gpn else None
        gbs = r0["gbs"]
        bpg = gbs / gpus_inst if (gbs and gpus_inst) else None
        sps = med([r["sps"] for r in rr])
        sec_ep = med([r["sec_train_epoch"] for r in rr])
        ttts = [r["ttt_min"] for r in ok]
        ttt = med(ttts)
        n_inst = len(rr) if scaling == "weak" else 1
        meth = ("epoch_start->eval_start per epoch (training only); samples=train_samples; "
                "epoch 1 excluded; median over epochs, median over %d result files" % len(rr))
        if scaling == "weak":
            meth += ("; WEAK scaling: %d instances (result files) trained concurrently, values are "
                     "per instance (%s nodes/%s GPUs each); aggregate = sum of per-instance medians = %.0f samples/s"
                     % (n_inst, nodes_inst, gpus_inst, sum(r["sps"] for r in rr if r["sps"])))
        else:
            meth += "; strong scaling (one model)"
        if not primary:
            meth += "; NOT an NVIDIA submission (supplementary)"
        st_in = all(r["staging_in_run"] for r in rr)
        meth += "; staging median %.0f s (%s time_to_train)" % (
            med([r["staging_s"] for r in rr]) or float('nan'),
            "inside" if st_in else "logged before run_start, i.e. NOT in")
        if scaling == "weak":
            meth += "; system total %s nodes" % nodes_total
        row = OrderedDict(
            benchmark="cosmoflow", round="HPC " + repo.split("_v")[-1],
            system="%s/%s (%s)" % (org, system, scaling),
            accelerator=sj.get("accelerator_model_name", ""), nodes=nodes_inst, gpus=gpus_inst,
            gpus_per_node=gpn, framework=sj.get("framework", ""),
            precision=PREC.get("%s:%s" % (repo, org), "not verified"), batch_per_gpu=fmt(bpg, 0) if bpg and bpg == int(bpg) else fmt(bpg, 2),
            global_batch=gbs, train_samples=r0["train_samples"],
            samples_per_s=fmt(sps), seconds_per_epoch=fmt(sec_ep, 2),
            time_to_train_min=fmt(ttt, 2), method=meth,
            source="mlcommons/%s@%s:%s/result_*.txt" % (repo, head(repo), d))
        rows.append(row)
        detail.append(OrderedDict(
            benchmark="cosmoflow", round=repo, system=system + "/" + scaling, files=len(rr),
            success=len(ok), samples_per_epoch=r0["train_samples"], epochs_per_block=1,
            sps_train_median=fmt(sps), sps_train_steady_2nd_half=fmt(med([r["sps_steady"] for r in rr])),
            sps_block_or_epoch_wall=fmt(med([r["sps_wall"] for r in rr])),
            logged_throughput_median=fmt(med([r["thr_logged"] for r in rr])),
            sps_train_min_run=fmt(min(r["sps"] for r in rr if r["sps"])),
            sps_train_max_run=fmt(max(r["sps"] for r in rr if r["sps"])),
            ttt_median_min=fmt(ttt, 2),
            ttt_olympic_mean_min=fmt((sum(sorted(ttts)[1:-1]) / (len(ttts) - 2)) if len(ttts) > 2 else None, 2),
            ttt_min_min=fmt(min(ttts), 2) if ttts else "", ttt_max_min=fmt(max(ttts), 2) if ttts else "",
            median_last_eval_epoch=fmt(med([r["n_epochs"] for r in ok])),
            units_after_run_stop_total=sum(r["epochs_after_run_stop"] for r in rr),
            cmd="eval_samples=%s staging_s_median=%s platform=%s nodes_total_in_system_json=%s" % (
                r0["eval_samples"], fmt(med([r["staging_s"] for r in rr])), r0["platform"], nodes_total),
            system_json=sjp or ""))
        print("cosmoflow", repo, system, scaling, len(rr), "files", fmt(sps), file=sys.stderr)


def main():
    rows, detail, runs = [], [], []
    do_unet(rows, detail, runs)
    do_cosmo(rows, detail, runs)
    with open(os.path.join(OUT, "mlperf_unet_cosmoflow.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLS)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    with open(os.path.join(OUT, "mlperf_unet_cosmoflow_detail.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(detail[0].keys()))
        w.writeheader()
        for r in detail:
            w.writerow(r)
    with open(os.path.join(OUT, "mlperf_unet_cosmoflow_runs.csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(runs[0].keys()))
        w.writeheader()
        for r in runs:
            w.writerow(r)


if __name__ == "__main__":
    main()
