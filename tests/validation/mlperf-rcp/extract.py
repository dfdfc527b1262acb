#!/usr/bin/env python3
"""Extract MLPerf Training / HPC reference convergence points (RCPs) into a CSV.

Source: the public repository mlcommons/logging, files
    mlperf_logging/rcp_checker/{training,hpc}_<version>/rcps_<benchmark>.json
read straight out of a git mirror (no work tree needed) with `git show`.

Usage:
    python3 extract.py [--git-dir /work/.mirror/mlcommons+logging/repo] [--rev HEAD] [--out rcps.csv]

Standard library only.  The statistics reproduce what
mlperf_logging/rcp_checker/rcp_checker.py computes:
  * RCP Mean  = "olympic" mean: sort the runs, drop the `k` fastest and `k`
                slowest (k = 4 for unet3d, 1 for everything else), average the rest.
  * pruning   = RCP_Checker._prune_rcps (drop every RCP with a BS smaller than the
                BS of the RCP with the lowest RCP Mean, then drop every interior
                point whose RCP Mean is above the linear interpolation of its
                neighbours, iteratively).
The plain (all-runs) mean, min and max are reported as well.
"""

import argparse
import csv
import json
import re
import subprocess
import sys

RCP_DIR = "mlperf_logging/rcp_checker"

# ---------------------------------------------------------------------------
# Dataset sizes (training samples per epoch) used to convert units.
# See README.md for the source of each number.
# ---------------------------------------------------------------------------
IMAGENET_TRAIN = 1281167          # ImageNet-1k train (reference imagenet_preprocessing.py)
COCO_NONEMPTY_TRAIN = 117266      # COCO 2017 train images with >=1 annotation (of 118,287)
OPENIMAGES_MLPERF_TRAIN = 1170301 # OpenImages MLPerf subset (264 classes), RetinaNet README
KITS19_TRAIN = 168                # KiTS19 training cases (compliance checker train_samples == 168)
COSMOFLOW_TRAIN = 524288          # cosmoUniverse_2019_05_4parE (hpc cosmoflow configs/cosmo.yaml n_train)
DEEPCAM_TRAIN = 121266            # HPC compliance checker train_samples == 121266
OC20_S2EF_2M_TRAIN = 2000000      # OC20 S2EF "2M" training split
OPENFOLD_TRAIN = 594595           # HPC compliance checker train_samples == 594595
# unet3d: samples per logged reference epoch for BS whose 3.0.0 epoch counts were converted
# to samples with a factor other than 168 in 3.1.0 (commit 7966690).
UNET3D_REF_EPOCH_SAMPLES = {32: 160, 64: 128, 80: 240}


def vtuple(v):
    return tuple(int(x) for x in v.split("."))


def dataset_size(usage, version, bench):
    if bench == "resnet":
        return IMAGENET_TRAIN
    if bench == "ssd":
        # v1.x "ssd" = SSD-ResNet34 on COCO; from v2.0 "ssd" = RetinaNet on OpenImages subset
        return COCO_NONEMPTY_TRAIN if vtuple(version) < (2, 0, 0) else OPENIMAGES_MLPERF_TRAIN
    if bench == "retinanet":
        return OPENIMAGES_MLPERF_TRAIN
    if bench == "maskrcnn":
        return COCO_NONEMPTY_TRAIN
    if bench == "unet3d":
        return KITS19_TRAIN
    if bench == "cosmoflow":
        return COSMOFLOW_TRAIN
    if bench == "deepcam":
        return DEEPCAM_TRAIN
    if bench == "oc20":
        return OC20_S2EF_2M_TRAIN
    if bench == "openfold":
        return OPENFOLD_TRAIN
    return None


def model_name(usage, version, bench):
    if bench == "ssd":
        return "SSD-ResNet34 (COCO)" if vtuple(version) < (2, 0, 0) else "RetinaNet-ResNeXt50 (OpenImages subset)"
    return {
        "resnet": "ResNet-50 v1.5 (ImageNet)",
        "retinanet": "RetinaNet-ResNeXt50 (OpenImages subset)",
        "maskrcnn": "Mask R-CNN (COCO)",
        "unet3d": "3D U-Net (KiTS19)",
        "cosmoflow": "CosmoFlow",
        "deepcam": "DeepCAM",
        "oc20": "OpenCatalyst OC20 (DimeNet++)",
        "openfold": "OpenFold",
    }.get(bench, bench)


def raw_unit(usage, version, bench):
    """Unit of the numbers in the RCP list, as the rcp_checker reads them from logs."""
    v = vtuple(version)
    if bench == "unet3d":
        # commit 7966690 (2023-09-27) "Add total samples instead of epochs for UNET3D RCPs"
        return "samples" if v >= (3, 1, 0) else "epochs"
    if bench == "openfold":
        return "samples"  # OpenFold logs epoch_num = cycles * GBS * val_every_iters
    if bench == "bert":
        return "samples"
    if bench == "gpt3":
        return "tokens"
    if bench == "stable_diffusion":
        return "steps" if v < (4, 0, 0) else "samples"
    if bench in {"llama2_70b_lora", "flux1", "llama31_405b", "llama31_8b",
                 "gpt_oss_20b", "deepseekv3_671b", "qwen35_397b_grpo"}:
        return "samples"
    return "epochs"


# Optimizer when the RCP record itself does not name one: (value, evidence)
def implied_optimizer(usage, version, bench, hp):
    v = vtuple(version)
    if bench == "ssd" and v < (2, 0, 0):
        return "sgd", "training_rules.adoc v1.0 hparam table (ssd|sgd)"
    if bench in ("ssd", "retinanet"):
        return "adam", "compliance_checker closed_%s.yaml: opt_name == 'adam'" % bench
    if bench == "maskrcnn":
        return "sgd", "training_rules.adoc hparam table (maskrcnn|sgd)"
    if bench == "unet3d":
        return "sgd", "training_rules.adoc hparam table (unet3d|sgd); momentum in RCP"
    if bench == "oc20":
        return "AdamW", "compliance_checker hpc closed_oc20.yaml: opt_name == 'AdamW'"
    if bench == "bert":
        return "lamb", "training_rules.adoc hparam table (bert|lamb)"
    keys = " ".join(hp.keys())
    for pat, name in (("opt_lamb_", "lamb"), ("opt_adamw_", "adamw"),
                      ("opt_adagrad_", "adagrad"), ("opt_adam_", "adam"), ("sgd_opt_", "sgd")):
        if pat in keys:
            return name, "inferred from hyperparameter key prefix '%s'" % pat
    return "", ""


def get_optimizer(usage, version, bench, hp):
    for k in ("optimizer", "opt_name"):
        if k in hp:
            return str(hp[k]), ""
    name, why = implied_optimizer(usage, version, bench, hp)
    return (name + " (implied)" if name else ""), why


def get_base_lr(hp):
    for k in ("opt_base_learning_rate", "opt_lr", "lars_opt_base_learning_rate", "sgd_opt_base_learning_rate"):
        if k in hp:
            return hp[k], k
    return "", ""


def get_warmup(usage, version, bench, hp, bs):
    """Return (warmup_epochs or '', raw description)."""
    v = vtuple(version)
    n = dataset_size(usage, version, bench)
    if "opt_learning_rate_warmup_epochs" in hp:
        w = hp["opt_learning_rate_warmup_epochs"]
        if bench == "unet3d" and v >= (4, 0, 0):
            # 4.0.0 file stores warmup in samples (168000 = 1000 epochs * 168)
            return w / KITS19_TRAIN, "opt_learning_rate_warmup_epochs=%s (samples)" % w
        return w, "opt_learning_rate_warmup_epochs=%s" % w
    for k in ("opt_learning_rate_warmup_steps", "scheduler_lr_warmup_steps", "num_warmup_steps"):
        if k in hp:
            w = hp[k]
            desc = "%s=%s" % (k, w)
            if bench == "ssd" and v < (2, 0, 0):
                # SSD v1.0.0 file: values (2.619685, 26, 40) are epochs (they equal the v1.1.0
                # step counts 300/1489/1145 * BS / 117266); v1.1.0 BS1536 value 2.619685 is
                # likewise epochs (non-integer).
                if v < (1, 1, 0) or float(w) != int(w):
                    return w, desc + " (actually epochs)"
            if n and isinstance(w, (int, float)):
                return w * bs / n, desc + " (steps; epochs = steps*BS/%d)" % n
            return "", desc
    if "opt_learning_rate_warmup_samples" in hp:
        return "", "opt_learning_rate_warmup_samples=%s" % hp["opt_learning_rate_warmup_samples"]
    return "", ""


def mean(xs):
    return sum(xs) / len(xs)


def olympic(bench, xs):
    k = 4 if bench == "unet3d" else 1
    s = sorted(xs)
    return mean(s[k:len(s) - k]), k


def prune(records):
    """records: list of dicts with 'BS' and 'rcp_mean'; returns set of kept BS
    (reimplementation of RCP_Checker._prune_rcps)."""
    pts = sorted(records, key=lambda r: r["BS"])
    fastest = min(pts, key=lambda r: r["rcp_mean"])
    pts = [r for r in pts if r["BS"] >= fastest["BS"]]
    i = 1
    while i < len(pts) - 1:
        lo, hi, cur = pts[i - 1], pts[i + 1], pts[i]
        interp = lo["rcp_mean"] + (hi["rcp_mean"] - lo["rcp_mean"]) * (cur["BS"] - lo["BS"]) / (hi["BS"] - lo["BS"])
        if cur["rcp_mean"] > interp:
            del pts[i]
            i -= 1
        i += 1
    return {r["BS"] for r in pts}


def fmt(x, nd=4):
    if x == "" or x is None:
        return ""
    if isinstance(x, float):
        r = round(x, nd)
        return str(int(r)) if r == int(r) else repr(r)
    return str(x)


def git(gitdir, *args):
    return subprocess.check_output(["git", "--git-dir=" + gitdir] + list(args)).decode()


COLUMNS = [
    # requested columns
    "benchmark", "version", "global_batch", "optimizer", "base_lr", "warmup_epochs",
    "runs", "mean_epochs", "min_epochs", "max_epochs", "unit_note", "source_path", "commit",
    # extra columns
    "usage", "model", "record", "checker_olympic_mean_epochs", "olympic_dropped_each_side",
    "in_pruned_set", "raw_unit", "raw_mean", "raw_min", "raw_max", "raw_checker_olympic_mean",
    "samples_per_epoch", "mean_samples", "warmup_raw", "optimizer_source", "creator", "when",
    "platform", "precision", "hyperparams_json", "raw_values",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git-dir", default="/work/.mirror/mlcommons+logging/repo")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--out", default="rcps.csv")
    args = ap.parse_args()

    commit = git(args.git_dir, "rev-parse", args.rev).strip()
    files = git(args.git_dir, "ls-tree", "-r", "--name-only", commit, RCP_DIR).split("\n")
    pat = re.compile(r"^%s/(training|hpc)_(\d+\.\d+\.\d+)/rcps_(\w+)\.json$" % re.escape(RCP_DIR))
    rows = []
    for path in files:
        m = pat.match(path)
        if not m:
            continue
        usage, version, fbench = m.groups()
        data = json.loads(git(args.git_dir, "show", "%s:%s" % (commit, path)))
        recs = []
        for key, rec in data.items():
            bench = rec.get("Benchmark", fbench)
            # the checker reads "samples to converge" for llama2_70b_lora and flux1
            vals = rec.get("Epochs to converge", rec.get("samples to converge"))
            if bench == "sd":  # 3.1.0 stable diffusion records are labelled "sd"
                bench = "stable_diffusion"
            recs.append((key, rec, bench, vals))
        # pruning works per file (the checker loads one benchmark file at a time)
        pr_in = []
        for key, rec, bench, vals in recs:
            pr_in.append({"BS": rec["BS"], "rcp_mean": olympic(bench, vals)[0]})
        kept = prune(pr_in)
        for key, rec, bench, vals in recs:
            hp = rec.get("Hyperparams", {})
            bs = rec["BS"]
            unit = raw_unit(usage, version, bench)
            n = dataset_size(usage, version, bench)
            omean, k = olympic(bench, vals)
            raw_mean, raw_min, raw_max = mean(vals), min(vals), max(vals)
            if unit == "epochs":
                conv = 1.0
            elif unit == "samples" and n:
                conv = 1.0 / n
            else:
                conv = None
            # unet3d <= 3.0.0: the logged "epoch" of the reference was not always 168 samples.
            # The 3.0.0 -> 3.1.0 epochs->samples conversion (commit 7966690) multiplied the
            # epoch counts by 160 (BS 32), 128 (BS 64) and 240 (BS 80), by 168 otherwise.
            # mean/min/max_epochs are normalised to 168-sample epochs (dataset passes).
            unet_spe = None
            if bench == "unet3d" and unit == "epochs":
                unet_spe = UNET3D_REF_EPOCH_SAMPLES.get(bs, KITS19_TRAIN)
                conv = unet_spe / KITS19_TRAIN
            note = "values are %s" % unit
            spe = n if n else ""
            mean_samples = ""
            if unit == "epochs" and n:
                mean_samples = raw_mean * n
            elif unit == "samples":
                mean_samples = raw_mean
            if bench == "unet3d":
                if unit == "samples":
                    note = "values are samples in the json; epochs = samples/168 (KiTS19 training cases)"
                else:
                    note = "values are reference-logged epochs"
                    if unet_spe != KITS19_TRAIN:
                        note += ("; at BS %d one logged reference epoch = %d samples (factor used by the"
                                 " 3.1.0 samples conversion, commit 7966690%s), so *_epochs columns ="
                                 " raw*%d/168 (168-sample epochs); raw_* columns keep the json numbers"
                                 % (bs, unet_spe,
                                    "; assumed for these pre-3.0 runs, which were not themselves converted"
                                    if (bs == 32 and vtuple(version) < (3, 0, 0)) else "", unet_spe))
                    mean_samples = raw_mean * unet_spe
            if bench == "ssd" and vtuple(version) < (2, 0, 0):
                note += "; SSD v1.x evaluates only at fixed epochs 40,50,55,...,80 (+85,90 for large BS)"
            if bench == "ssd" and vtuple(version) >= (2, 0, 0):
                note += "; benchmark 'ssd' in v2.0-v4.1 is RetinaNet (renamed 'retinanet' in v5.0)"
            if unit != "epochs" and conv is None:
                note += " (no epoch conversion)"
            if bench == "openfold":
                note += "; epochs = samples/594595"
            opt, opt_src = get_optimizer(usage, version, bench, hp)
            lr, _ = get_base_lr(hp)
            wu, wu_raw = get_warmup(usage, version, bench, hp, bs)
            rows.append({
                "benchmark": bench,
                "version": version,
                "global_batch": bs,
                "optimizer": opt,
                "base_lr": fmt(lr, 8) if isinstance(lr, float) else lr,
                "warmup_epochs": fmt(wu, 3) if wu != "" else "",
                "runs": len(vals),
                "mean_epochs": fmt(raw_mean * conv, 4) if conv is not None else "",
                "min_epochs": fmt(raw_min * conv, 4) if conv is not None else "",
                "max_epochs": fmt(raw_max * conv, 4) if conv is not None else "",
                "unit_note": note,
                "source_path": path,
                "commit": commit,
                "usage": usage,
                "model": model_name(usage, version, bench),
                "record": key,
                "checker_olympic_mean_epochs": fmt(omean * conv, 4) if conv is not None else "",
                "olympic_dropped_each_side": k,
                "in_pruned_set": "yes" if bs in kept else "no",
                "raw_unit": unit,
                "raw_mean": fmt(raw_mean, 4),
                "raw_min": fmt(raw_min, 4),
                "raw_max": fmt(raw_max, 4),
                "raw_checker_olympic_mean": fmt(omean, 4),
                "samples_per_epoch": spe,
                "mean_samples": fmt(float(mean_samples), 0) if mean_samples != "" else "",
                "warmup_raw": wu_raw,
                "optimizer_source": opt_src or "RCP Hyperparams",
                "creator": rec.get("Creator", ""),
                "when": rec.get("When", ""),
                "platform": rec.get("Platform", ""),
                "precision": rec.get("Precision", ""),
                "hyperparams_json": json.dumps(hp, sort_keys=True),
                "raw_values": " ".join(fmt(x) if isinstance(x, float) else str(x) for x in vals),
            })
    rows.sort(key=lambda r: (r["usage"] != "training", r["benchmark"], vtuple(r["version"]), r["global_batch"]))
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
    print("wrote %d rows from %s @ %s" % (len(rows), args.git_dir, commit), file=sys.stderr)


if __name__ == "__main__":
    main()
