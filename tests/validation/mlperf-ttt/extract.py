#!/usr/bin/env python3
"""Extract measured MLPerf Training / HPC time-to-train from the published result logs.

Reads the bare git snapshots of mlcommons/training_results_vX.Y and
mlcommons/hpc_results_vX.Y (as brought by the `fetch` tool to
/work/.mirror/mlcommons+<repo>/repo) directly with `git cat-file --batch`;
nothing is checked out.

Every log is a text file whose MLPerf lines look like
    :::MLLOG {"namespace": "", "time_ms": 1695487902079, "event_type": "INTERVAL_START",
              "key": "run_start", "value": null, "metadata": {...}}
(possibly prefixed by a rank tag such as "[1,0]<stdout>:" and possibly duplicated
by several ranks).  Per log we take:
  * run_start / run_stop  -> time to train = run_stop - run_start, exactly as
    mlperf_logging.result_summarizer._query_run_start_stop does (it keeps the last
    run_start seen before the first run_stop, and the first run_stop);
  * run_stop metadata.status ("success" or "aborted");
  * epochs to converge = metadata.epoch_num of the last eval_accuracy line before
    run_stop (what mlperf_logging.rcp_checker uses);
  * global_batch_size, opt_name, train_samples, number_of_nodes/accelerators_per_node
    (HPC logs), submission_* keys;
  * logged throughput: `tracked_stats` {"throughput": x} (NVIDIA >= v3.0),
    a top-level "throughput" key (HPC CosmoFlow) or MXNet Speedometer text lines
    "Speed: x samples/sec"; and an epoch-derived throughput = train_samples /
    (epoch_stop - epoch_start) per epoch (median over epochs after the first).

Per system result (one results/<system>/<benchmark> folder) the score follows
mlperf_logging.result_summarizer._compute_strong_score_standalone: sort the
times of converged runs, drop max_dropped (1; 4 for unet3d) from the fast end and
(max_dropped - n_non_converged) from the slow end, average the rest, then multiply
by scaling.json's scaling_factor if the review committee added one (RCP
normalisation).  HPC weak scaling: time_to_train_all = max(run_stop) -
min(run_start) over all models.

Usage:
    python3 extract.py [--mirror /work/.mirror] [--out /work/dev/ttt]
"""
import argparse
import csv
import glob
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

TRAINING_VERSIONS = ["0.7", "1.0", "1.1", "2.0", "2.1", "3.0", "3.1", "4.0", "4.1", "5.0"]
HPC_VERSIONS = ["0.7", "1.0", "2.0", "3.0"]

# benchmark folder name -> output table name.  The "ssd" folder is SSD-ResNet34/COCO
# up to v1.1 and RetinaNet/OpenImages from v2.0 (folder renamed "retinanet" in v5.0).
def table_for(usage, version, bench):
    if usage == "hpc":
        return bench if bench == "cosmoflow" else None
    if bench == "resnet":
        return "resnet"
    if bench == "ssd":
        return "ssd" if version in ("0.7", "1.0", "1.1") else "retinanet"
    if bench == "retinanet":
        return "retinanet"
    if bench == "unet3d":
        return "unet3d"
    return None

MODEL_NAMES = {
    "resnet": "ResNet-50 v1.5 / ImageNet (target top-1 0.759)",
    "ssd": "SSD-ResNet34 / COCO-2017 300x300 (target mAP 0.23)",
    "retinanet": "RetinaNet-ResNeXt50 / OpenImages subset 800x800 (target mAP 0.34)",
    "unet3d": "3D U-Net / KiTS19 (target mean DICE 0.908)",
    "cosmoflow": "CosmoFlow (HPC) (target val MAE 0.124 from v1.0; 0.34 in v0.7)",
}

TOKEN = ":::MLLOG"
DATASET_SIZE = {"resnet": 1281167, "ssd": 117266, "retinanet": 1170301, "unet3d": 168}
SPEED_RE = re.compile(r"Speed:\s*([0-9.]+)\s*samples/sec")


# ----------------------------------------------------------------------------- git
class Repo:
    def __init__(self, gitdir):
        self.gitdir = gitdir
        self.commit = subprocess.check_output(
            ["git", "--git-dir", gitdir, "rev-parse", "HEAD"], text=True).strip()
        self.commit_date = subprocess.check_output(
            ["git", "--git-dir", gitdir, "log", "-1", "--format=%cs"], text=True).strip()
        out = subprocess.check_output(
            ["git", "--git-dir", gitdir, "ls-tree", "-r", "-l", "HEAD"], text=True,
            errors="replace")
        self.files = {}  # path -> (sha, size or None)
        for line in out.splitlines():
            meta, path = line.split("\t", 1)
            parts = meta.split()
            if parts[1] != "blob":
                continue
            size = None if parts[3] in ("BAD", "-") else int(parts[3])
            self.files[path] = (parts[2], size)
        self._proc = None

    def read(self, path):
        """Return file text, or None when the blob is absent from the snapshot."""
        sha, size = self.files[path]
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["git", "--git-dir", self.gitdir, "cat-file", "--batch"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._proc.stdin.write((sha + "\n").encode())
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().decode().split()
        if len(header) < 3 or header[1] == "missing":
            return None
        n = int(header[2])
        data = self._proc.stdout.read(n)
        self._proc.stdout.read(1)  # trailing LF
        return data.decode("latin-1")


# ----------------------------------------------------------------------------- log
def parse_log(text):
    ev = []
    bad = 0
    speeds = []
    for line in text.splitlines():
        i = line.find(TOKEN)
        if i < 0:
            m = SPEED_RE.search(line)
            if m:
                speeds.append(float(m.group(1)))
            continue
        s = line[i + len(TOKEN):].strip()
        try:
            j, _ = json.JSONDecoder().raw_decode(s)
        except Exception:
            bad += 1
            continue
        if not isinstance(j, dict) or "key" not in j:
            bad += 1
            continue
        if "time_ms" in j:
            t = float(j["time_ms"])
        elif "time_s" in j:  # Alibaba v0.7 style
            t = float(j["time_s"]) * 1000.0
        else:
            t = None
        md = j.get("metadata") or {}
        ev.append((t, j["key"], j.get("value"), md if isinstance(md, dict) else {}))
    return ev, bad, speeds


FIRST_KEYS = ["submission_benchmark", "submission_org", "submission_division",
              "submission_status", "submission_platform", "global_batch_size",
              "opt_name", "train_samples", "eval_samples", "number_of_nodes",
              "accelerators_per_node", "gradient_accumulation_steps", "seed",
              "samples_per_epoch"]


def summarize_log(text):
    ev, bad, speeds = parse_log(text)
    r = {"n_events": len(ev), "n_bad_lines": bad}
    for k in FIRST_KEYS:
        for t, key, val, md in ev:
            if key == k:
                r[k] = val
                break
    run_start = run_stop = None
    status = None
    stop_idx = None
    for idx, (t, key, val, md) in enumerate(ev):
        if key == "run_start":
            run_start = t
        elif key == "run_stop":
            run_stop = t
            status = md.get("status")
            stop_idx = idx
            break
    r["run_start_ms"] = run_start
    r["run_stop_ms"] = run_stop
    r["status"] = status
    r["ttt_s"] = (run_stop - run_start) / 1000.0 if (run_start is not None and run_stop is not None) else None
    # last eval before run_stop
    upto = ev[:stop_idx] if stop_idx is not None else ev
    last_eval = None
    n_evals = 0
    keys = ("eval_accuracy",) if any(k == "eval_accuracy" for _, k, _, _ in upto) else ("eval_error",)
    for t, key, val, md in upto:
        if key in keys:
            n_evals += 1
            last_eval = (val, md.get("epoch_num", md.get("epoch_count", md.get("samples_count"))))
    r["eval_key"] = keys[0]
    r["n_evals"] = n_evals
    r["final_eval_accuracy"] = last_eval[0] if last_eval else None
    r["conv_epoch"] = last_eval[1] if last_eval else None
    r["conv_epoch_raw"] = r["conv_epoch"]
    r["epoch_note"] = ""
    # 3D U-Net from v3.x logs epoch_num as *samples seen* (e.g. 456960 = 2720 epochs x 168)
    spe = r.get("samples_per_epoch") or r.get("train_samples")
    if r.get("submission_benchmark") == "unet3d" and isinstance(r["conv_epoch"], (int, float)) \
            and r["conv_epoch"] >= 20000 and isinstance(spe, (int, float)) and spe > 0:
        r["conv_epoch"] = r["conv_epoch"] / spe
        r["epoch_note"] = f"epoch_num logged in samples; divided by {spe}"
    # epoch timings (first occurrence per epoch_num: logs may repeat per rank)
    starts, stops = {}, {}
    for t, key, val, md in upto:
        if key == "epoch_start" and "epoch_num" in md:
            starts.setdefault(md["epoch_num"], t)
        elif key == "epoch_stop" and "epoch_num" in md:
            stops.setdefault(md["epoch_num"], t)
    r["first_epoch_num"] = min(starts) if starts else None
    durs = []
    for e in sorted(starts):
        if e in stops and stops[e] is not None and starts[e] is not None:
            d = (stops[e] - starts[e]) / 1000.0
            if d > 0:
                durs.append((e, d))
    if len(durs) > 1:
        durs = durs[1:]  # first epoch includes warm-up / graph capture
    r["median_epoch_s"] = statistics.median([d for _, d in durs]) if durs else None
    ts = r.get("train_samples")
    try:
        ts = float(ts)
    except (TypeError, ValueError):
        ts = None
    # NVIDIA-derived RetinaNet code logs train_samples as *iterations* per epoch
    # (e.g. 4572 = ceil(1170301/256)); convert to samples when it is far below the
    # known training-set size of the benchmark.
    r["samples_per_epoch_note"] = ""
    gbs = r.get("global_batch_size")
    for known in DATASET_SIZE.values():
        if ts and isinstance(gbs, (int, float)) and ts < 0.1 * known and abs(ts * gbs - known) / known < 0.1:
            ts = float(known)
            r["samples_per_epoch_note"] = "train_samples logged as iterations; used dataset size"
            break
    r["epoch_throughput"] = ts / r["median_epoch_s"] if (ts and r["median_epoch_s"]) else None
    # span from the 2nd logged epoch_start to the last epoch_stop before run_stop (includes the
    # evaluations in between; robust to asynchronous epoch markers)
    es = sorted(e for e in starts if e in stops)
    r["span_throughput"] = None
    if ts and len(es) >= 3:
        e0, e1 = es[1], es[-1]
        span = (stops[e1] - starts[e0]) / 1000.0
        n_ep = len([e for e in es if e0 <= e <= e1])
        if span > 0:
            r["span_throughput"] = ts * n_ep / span
    # whole-run average: epochs trained * train_samples / (run_stop - run_start)
    r["run_avg_throughput"] = None
    ce = r["conv_epoch"]
    if ts and isinstance(ce, (int, float)) and r["ttt_s"]:
        base = r["first_epoch_num"] if r["first_epoch_num"] in (0, 1) else 1
        r["run_avg_throughput"] = ts * (ce - base + 1) / r["ttt_s"]
    # logged throughput
    thr = {}
    for t, key, val, md in upto:
        if key == "tracked_stats" and isinstance(val, dict) and "throughput" in val:
            thr.setdefault(str(md.get("step", len(thr))), float(val["throughput"]))
        elif key == "throughput" and isinstance(val, (int, float)):
            thr.setdefault(str(md.get("epoch_num", len(thr))), float(val))
    vals = list(thr.values())
    if len(vals) > 1:
        vals = vals[1:]
    if vals:
        r["logged_throughput"] = statistics.median(vals)
        r["throughput_source"] = "mllog throughput"
    elif speeds:
        r["logged_throughput"] = statistics.median(speeds)
        r["throughput_source"] = "Speedometer 'Speed: samples/sec' lines"
    else:
        r["logged_throughput"] = None
        r["throughput_source"] = ""
    # precision evidence from the command-line echo / config dump in the log
    r["precision_hint"] = precision_hint(text)
    return r


PREC_PATTERNS = [
    ("FP8", re.compile(r"fp8|float8|transformer_engine.*fp8", re.I)),
    ("BF16", re.compile(r"bf16|bfloat16", re.I)),
    ("FP16", re.compile(r"dtype[\"' =:]+(float16|fp16|half)|--fp16\b|fp16[\"' =:]+(true|1)\b|\"fp16\": ?true|use_fp16|half_precision", re.I)),
    ("AMP", re.compile(r"--amp\b|\bamp[\"' =:]+(true|1)\b|\"amp\": ?true|AMP=1|use_amp|mixed.precision", re.I)),
]


def precision_hint(text):
    # look only at non-MLLOG lines and a bounded amount of text
    sample = "\n".join(l for l in text[:400000].splitlines() if TOKEN not in l)
    found = [name for name, rx in PREC_PATTERNS if rx.search(sample)]
    return "+".join(found)


# ------------------------------------------------------------------- implementation
def impl_precision(repo, submitter, bench, framework):
    """Grep the submitter's implementation scripts for precision switches."""
    prefix = f"{submitter}/benchmarks/{bench}/implementations/"
    found = set()
    for path, (sha, size) in repo.files.items():
        if not path.startswith(prefix) or size is None or size > 200000:
            continue
        base = os.path.basename(path)
        if not (base.startswith("run_and_time") or base.startswith("config_") or base.endswith(".sub")
                or base in ("run.sh", "train.sh")):
            continue
        txt = repo.read(path) or ""
        for name, rx in PREC_PATTERNS:
            if rx.search(txt):
                found.add(name)
    return "+".join(sorted(found))


# ----------------------------------------------------------------------------- scoring
def olympic(scores, n_failed, max_dropped):
    if n_failed > max_dropped:
        return None
    s = sorted(scores)
    c = s[max_dropped:len(s) - (max_dropped - n_failed)]
    return sum(c) / len(c) if c else None


def load_json_lenient(text):
    if text is None:
        return None
    try:
        d = json.loads(text)
    except Exception:
        # strip trailing commas / comments
        t = re.sub(r",\s*([}\]])", r"\1", re.sub(r"//.*", "", text))
        try:
            d = json.loads(t)
        except Exception:
            return None
    if isinstance(d, dict):
        # some submitters write "number of nodes" or pad keys with blanks
        d = {re.sub(r"\s+", "_", str(k).strip()).lower(): v for k, v in d.items()}
    return d


def to_int(x):
    try:
        return int(float(str(x).strip()))
    except Exception:
        return None


def accel_kind(name):
    n = (name or "").lower()
    if "tpu" in n:
        return "TPU"
    if "ipu" in n or "graphcore" in n or "bow" in n and "pod" in n:
        return "IPU"
    if "gaudi" in n or "habana" in n:
        return "Gaudi"
    if any(k in n for k in ("nvidia", "a100", "h100", "v100", "h200", "a30", "a10", "l40", "gb200", "b200", "mi2", "mi3", "amd instinct", "t4")):
        return "GPU"
    if "radeon" in n or "amd" in n:
        return "GPU"
    if "ascend" in n:
        return "NPU"
    if "xeon" in n or "cpu" in n or "a64fx" in n or "epyc" in n:
        return "CPU"
    return ""


def official_csvs(repo):
    """submitter-level summarizer CSVs shipped in a few repos -> {(system, bench): minutes}."""
    out = {}
    for path in repo.files:
        if path.count("/") == 1 and path.lower().endswith(".csv") and "summar" in path.lower():
            txt = repo.read(path)
            if not txt:
                continue
            rows = list(csv.reader(txt.splitlines()))
            hdr = None
            for row in rows:
                if row and row[0] == "division":
                    hdr = row
                    continue
                if not hdr or len(row) != len(hdr):
                    continue
                d = dict(zip(hdr, row))
                for b in ("resnet", "ssd", "unet3d", "cosmoflow", "retinanet"):
                    if d.get(b):
                        try:
                            out.setdefault((d["system"], b), []).append(
                                (to_int(d.get("accelerators_count")), float(d[b])))
                        except ValueError:
                            pass
    return out


# ----------------------------------------------------------------------------- main
RESULT_RE_TRAIN = re.compile(r"^([^/]+)/results/([^/]+)/(?:([^/]+)/)?result_[^/]*\.txt$")
RESULT_RE_HPC = re.compile(r"^([^/]+)/results/([^/]+)/(?:(strong|weak)/)?([^/]+)/result_[^/]*\.txt$")


def collect(usage, version, repo, repo_name):
    groups = defaultdict(list)
    for path in repo.files:
        if usage == "training":
            m = RESULT_RE_TRAIN.match(path)
            if not m:
                continue
            sub, system, bench = m.group(1), m.group(2), m.group(3)
            scaling = ""
            if bench is None:
                bench = "?"  # Alibaba v0.7: no benchmark folder; resolved from the log
        else:
            m = RESULT_RE_HPC.match(path)
            if not m:
                continue
            sub, system, scaling, bench = m.group(1), m.group(2), m.group(3) or "strong", m.group(4)
        groups[(sub, system, scaling, bench)].append(path)

    csv_scores = official_csvs(repo)
    rows = []
    impl_cache = {}
    for (sub, system, scaling, bench), paths in sorted(groups.items()):
        # cheap filter before reading the logs
        if bench != "?" and table_for(usage, version, bench) is None:
            continue
        logs = []
        missing = []
        for p in sorted(paths, key=lambda x: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", x)]):
            txt = repo.read(p)
            if txt is None:
                missing.append(p)
                continue
            r = summarize_log(txt)
            r["path"] = p
            logs.append(r)
        if bench == "?":
            names = {l.get("submission_benchmark") for l in logs} - {None}
            bench = names.pop() if len(names) == 1 else "?"
        table = table_for(usage, version, bench)
        if table is None:
            continue
        folder = os.path.dirname(paths[0])

        # system description
        sys_path = f"{sub}/systems/{system}.json"
        desc = load_json_lenient(repo.read(sys_path)) if sys_path in repo.files else None
        note = []
        if desc is None:
            # Alibaba v0.7: results/v100-256 <-> systems/n32_pai_eflops.json etc.
            mgpu = re.search(r"(\d+)$", system)
            for p in repo.files:
                if p.startswith(f"{sub}/systems/") and p.endswith(".json") and mgpu:
                    d = load_json_lenient(repo.read(p))
                    if d and to_int(d.get("number_of_nodes")) and \
                            to_int(d.get("number_of_nodes")) * (to_int(d.get("accelerators_per_node")) or 1) == int(mgpu.group(1)):
                        desc, sys_path = d, p
                        note.append(f"system json matched by accelerator count ({p})")
                        break
        if desc is None:
            desc = {}
            note.append("no systems/<system>.json found")
        nodes = to_int(desc.get("number_of_nodes"))
        apn = to_int(desc.get("accelerators_per_node"))
        # HPC logs carry number_of_nodes/accelerators_per_node themselves
        lnodes = next((to_int(l.get("number_of_nodes")) for l in logs if l.get("number_of_nodes") is not None), None)
        lapn = next((to_int(l.get("accelerators_per_node")) for l in logs if l.get("accelerators_per_node") is not None), None)
        if nodes is None and lnodes is not None:
            nodes = lnodes
        if apn is None and lapn is not None:
            apn = lapn
        accelerators = nodes * max(apn, 1) if (nodes is not None and apn is not None) else None
        accel = (desc.get("accelerator_model_name") or "").strip()
        if accel.upper() in ("", "N/A", "NA", "NONE") and desc.get("host_processor_model_name") and (apn in (0, None)):
            accel = "CPU: " + str(desc.get("host_processor_model_name")).strip()
        framework = (desc.get("framework") or "").strip()

        # run_stop without a status (a few v0.7 HPC logs): counted as converged, with a note
        ok = [l for l in logs if l["ttt_s"] is not None and l["status"] in ("success", None)]
        if any(l["status"] is None and l["ttt_s"] is not None for l in logs):
            note.append("run_stop carries no status in some logs: assumed converged")
        failed = len(logs) - len(ok)
        max_dropped = 4 if bench == "unet3d" else 1
        scale_path = f"{folder}/scaling.json"
        scaling_factor = 1.0
        if scale_path in repo.files:
            sj = load_json_lenient(repo.read(scale_path))
            if sj and "scaling_factor" in sj:
                scaling_factor = float(sj["scaling_factor"])

        row = {
            "version": version, "submitter": sub, "system": system,
            "accelerator": accel, "accelerators": accelerators,
            "framework": framework,
        }
        gbs = sorted({l.get("global_batch_size") for l in logs if l.get("global_batch_size") is not None}, key=str)
        row["global_batch"] = "/".join(str(g) for g in gbs)
        ep = [l["conv_epoch"] for l in ok if isinstance(l["conv_epoch"], (int, float))]
        row["epochs_to_converge"] = round(statistics.median(ep), 3) if ep else ""
        ttts = [l["ttt_s"] for l in ok]
        if scaling == "weak":
            if ok:
                t0 = min(l["run_start_ms"] for l in ok)
                t1 = max(l["run_stop_ms"] for l in ok)
                score = (t1 - t0) / 1000.0
            else:
                score = None
            rule = "weak: max(run_stop)-min(run_start) over all models"
        else:
            score_raw = olympic(ttts, failed, max_dropped) if ttts else None
            score = score_raw * scaling_factor if score_raw is not None else None
            rule = f"olympic mean (drop {max_dropped} fastest & slowest, non-converged count as slowest)"
            if scaling_factor != 1.0:
                rule += f" x scaling.json {scaling_factor:g}"
            if missing:
                rule += f"; {len(missing)} log(s) absent from snapshot"
        row["time_to_train_s"] = round(score, 2) if score is not None else ""
        row["logs_used"] = len(ok)
        row["source_path"] = folder
        row["commit"] = repo.commit
        # ---- extras
        row["repo"] = repo_name
        row["benchmark_folder"] = bench
        row["model"] = MODEL_NAMES.get(table, table)
        row["scaling"] = scaling if usage == "hpc" else ""
        row["division"] = desc.get("division") or next((l.get("submission_division") for l in logs if l.get("submission_division")), "")
        dv = str(row["division"]).strip().lower()
        row["division"] = "closed" if dv.startswith("clos") else ("open" if dv.startswith("open") else dv)
        row["availability"] = desc.get("status") or next((l.get("submission_status") for l in logs if l.get("submission_status")), "")
        row["nodes"] = nodes if nodes is not None else ""
        row["accelerators_per_node"] = apn if apn is not None else ""
        row["accelerator_kind"] = accel_kind(accel)
        row["n_logs_in_repo"] = len(paths)
        row["n_logs_absent_in_snapshot"] = len(missing)
        row["n_not_converged"] = failed
        row["score_rule"] = rule
        row["scaling_factor"] = scaling_factor
        row["ttt_median_s"] = round(statistics.median(ttts), 2) if ttts else ""
        row["ttt_min_s"] = round(min(ttts), 2) if ttts else ""
        row["ttt_max_s"] = round(max(ttts), 2) if ttts else ""
        row["ttt_all_s"] = " ".join(f"{t:.1f}" for t in ttts)
        if usage == "hpc" and scaling == "weak":
            row["number_of_models"] = len(ok)
        eps = sorted(ep)
        row["epochs_olympic_mean"] = round(sum(eps[1:-1]) / len(eps[1:-1]), 3) if len(eps) >= 3 else ""
        row["epochs_all"] = " ".join(str(e) for e in ep)
        row["first_epoch_num_logged"] = "/".join(sorted({str(l["first_epoch_num"]) for l in logs if l["first_epoch_num"] is not None}))
        lt = [l["logged_throughput"] for l in ok if l["logged_throughput"]]
        row["logged_throughput_samples_s"] = round(statistics.median(lt), 1) if lt else ""
        row["logged_throughput_source"] = next((l["throughput_source"] for l in ok if l["logged_throughput"]), "")
        et = [l["epoch_throughput"] for l in ok if l["epoch_throughput"]]
        row["epoch_derived_throughput_samples_s"] = round(statistics.median(et), 1) if et else ""
        st = [l["span_throughput"] for l in ok if l["span_throughput"]]
        row["train_span_throughput_samples_s"] = round(statistics.median(st), 1) if st else ""
        rt = [l["run_avg_throughput"] for l in ok if l["run_avg_throughput"]]
        row["run_avg_throughput_samples_s"] = round(statistics.median(rt), 1) if rt else ""
        flags = []
        if lt and rt and not (0.5 < statistics.median(lt) / statistics.median(rt) < 2.0):
            flags.append("logged throughput differs >2x from run average (per-accelerator units, or asynchronous timing)")
        if any(l.get("samples_per_epoch_note") for l in ok):
            flags.append("train_samples logged as iterations/epoch; derived throughputs use the dataset size")
        if et and st and statistics.median(et) > 1.5 * statistics.median(st):
            flags.append("per-epoch markers asynchronous: epoch-derived throughput unreliable")
        row["throughput_flags"] = "; ".join(flags)
        row["train_samples"] = next((l.get("train_samples") for l in logs if l.get("train_samples") is not None), "")
        row["opt_name"] = next((l.get("opt_name") for l in logs if l.get("opt_name") is not None), "")
        ph = sorted({l["precision_hint"] for l in logs if l["precision_hint"]})
        row["precision_in_log"] = ";".join(ph)
        key = (sub, bench, framework)
        if key not in impl_cache:
            impl_cache[key] = impl_precision(repo, sub, bench, framework)
        row["precision_in_impl_scripts"] = impl_cache[key]
        if row["precision_in_log"]:
            row["precision"] = row["precision_in_log"] + " (log)"
        elif row["precision_in_impl_scripts"]:
            row["precision"] = row["precision_in_impl_scripts"] + " (implementation scripts)"
        else:
            row["precision"] = ""
        row["submission_platform"] = next((str(l.get("submission_platform")) for l in logs if l.get("submission_platform")), "")
        cands = csv_scores.get((system, bench), [])
        if len(cands) > 1:
            cands = [c for c in cands if c[0] == accelerators] or cands[:0]
        row["official_csv_minutes"] = round(cands[0][1], 4) if len(cands) == 1 else ""
        en = sorted({l["epoch_note"] for l in ok if l.get("epoch_note")})
        ek = sorted({l["eval_key"] for l in ok if l.get("n_evals")})
        if ek and ek != ["eval_accuracy"]:
            note.append("epochs from last %s line (no eval_accuracy logged)" % "/".join(ek))
        row["notes"] = "; ".join(note + en)
        row["_table"] = table
        row["_logs"] = logs
        rows.append(row)
    return rows


MAIN_COLS = ["version", "submitter", "system", "accelerator", "accelerators", "framework",
             "global_batch", "epochs_to_converge", "time_to_train_s", "logs_used",
             "source_path", "commit"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--include-tpu", action="store_true")
    args = ap.parse_args()

    all_rows = []
    commits = []
    for usage, versions in (("training", TRAINING_VERSIONS), ("hpc", HPC_VERSIONS)):
        for v in versions:
            name = f"{usage}_results_v{v}"
            gitdir = os.path.join(args.mirror, f"mlcommons+{name}", "repo")
            if not os.path.isdir(gitdir):
                print(f"skip {name}: no snapshot at {gitdir}", file=sys.stderr)
                continue
            repo = Repo(gitdir)
            commits.append((name, repo.commit, repo.commit_date))
            rows = collect(usage, v, repo, "mlcommons/" + name)
            print(f"{name}: {len(rows)} system results", file=sys.stderr)
            all_rows.extend(rows)

    per_log = []
    tables = defaultdict(list)
    for r in all_rows:
        for l in r["_logs"]:
            per_log.append({
                "table": r["_table"], "version": r["version"], "submitter": r["submitter"],
                "system": r["system"], "scaling": r["scaling"], "path": l["path"],
                "status": l["status"], "conv_epoch_raw": l["conv_epoch_raw"], "ttt_s": round(l["ttt_s"], 3) if l["ttt_s"] is not None else "",
                "conv_epoch": l["conv_epoch"], "final_eval_accuracy": l["final_eval_accuracy"],
                "global_batch_size": l.get("global_batch_size"),
                "logged_throughput": round(l["logged_throughput"], 1) if l["logged_throughput"] else "",
                "epoch_derived_throughput": round(l["epoch_throughput"], 1) if l["epoch_throughput"] else "",
                "median_epoch_s": round(l["median_epoch_s"], 3) if l["median_epoch_s"] else "",
                "n_bad_mllog_lines": l["n_bad_lines"],
            })
        if r["accelerator_kind"] == "TPU" and not args.include_tpu:
            continue
        tables[r["_table"]].append(r)

    # the same runs are sometimes re-published in a later round (or by a partner):
    # flag rows whose (run_start, run_stop) pairs were already seen in an earlier row
    seen = {}
    for r in sorted(all_rows, key=lambda r: (r["_table"], float(r["version"]))):
        sig = {(l["run_start_ms"], l["run_stop_ms"]) for l in r["_logs"] if l["run_start_ms"] is not None}
        r["same_runs_as"] = ""
        if not sig:
            continue
        for (table, v, name), other in seen.items():
            if table == r["_table"] and len(sig & other) >= max(1, len(sig) // 2):
                r["same_runs_as"] = f"v{v} {name}"
                break
        seen.setdefault((r["_table"], r["version"], r["source_path"]), sig)

    for table, rows in tables.items():
        rows.sort(key=lambda r: (float(r["version"]), r["submitter"].lower(),
                                 r["accelerators"] or 0, r["system"]))
        cols = MAIN_COLS + [c for c in rows[0].keys() if c not in MAIN_COLS and not c.startswith("_")]
        if table == "cosmoflow":
            cols = cols + (["number_of_models"] if "number_of_models" not in cols else [])
        fn = os.path.join(args.out, f"mlperf-{table}-ttt.csv")
        with open(fn, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow(r)
        print(f"wrote {fn}: {len(rows)} rows", file=sys.stderr)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        for table, rows in tables.items():
            f.write(f"## {table}: {MODEL_NAMES.get(table, table)}\n\n")
            f.write("Rows re-publishing runs already published in an earlier row are omitted here "
                    "(see same_runs_as in the CSV); no-score rows are listed with '-'.\n\n")
            f.write("| version | submitter | system | accelerator | n | global batch | epochs (median) | TTT s | TTT min | logs | run-avg samples/s |\n")
            f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
            for r in sorted(rows, key=lambda r: (r["accelerator_kind"] != "GPU", r["accelerator"].lower(),
                                                 r["accelerators"] or 0, float(r["version"]), r["submitter"])):
                if r["same_runs_as"]:
                    continue
                t = r["time_to_train_s"]
                sc = f"/{r['scaling']}" if r["scaling"] else ""
                f.write(f"| {r['version']} | {r['submitter']} | {r['system']}{sc} | {r['accelerator']} | {r['accelerators']} | "
                        f"{r['global_batch']} | {r['epochs_to_converge']} | {t if t != '' else '-'} | "
                        f"{round(t / 60, 3) if t != '' else '-'} | {r['logs_used']}/{r['n_logs_in_repo']} | "
                        f"{r['run_avg_throughput_samples_s']} |\n")
            f.write("\n")
    with open(os.path.join(args.out, "mlperf-per-log.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(per_log[0].keys()))
        w.writeheader()
        w.writerows(per_log)
    with open(os.path.join(args.out, "commits.txt"), "w") as f:
        for name, c, d in commits:
            f.write(f"mlcommons/{name} {c} {d}\n")


if __name__ == "__main__":
    main()
