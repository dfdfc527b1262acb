#!/usr/bin/env python3
"""Extract timm's published RTX 3090 training benchmark rows for the timm
networks this repository has ONNX fixtures of, and print them as CSV on stdout.

Standard library only. Usage:

    python3 timm_rtx3090_extract.py benchmark-train-amp-nchw-pt112-cu113-rtx3090.csv \
        > timm-train-rtx3090.csv

The benchmark CSV is results/benchmark-train-amp-nchw-pt112-cu113-rtx3090.csv
of https://github.com/huggingface/pytorch-image-models. The model list and the
input sizes default to ../timm/models.txt and ../timm/timm.csv next to this
script; --models PATH and --timm-csv PATH override them.

Only exact name matches are written, in models.txt order. Values are copied
verbatim; only the column names change to carry units:

    train_step_time -> train_step_time_ms  (milliseconds per step, one batch)
    param_count     -> param_count_m       (millions of parameters, 2 decimals)

On stderr: counts, the models.txt networks the benchmark lacks, near-misses
(benchmark names that extend a missing name by a suffix, or old timm names
that timm itself maps to the missing name), whether each matched row's
train_img_size equals the H and W of the fixture's input (timm.csv column
`input`, CxHxW), and whether param_count agrees with timm.csv's params.
Near-misses are reported only, never written.
"""
import csv
import os
import sys

OUT_COLUMNS = [
    ("model", "model"),
    ("train_samples_per_sec", "train_samples_per_sec"),
    ("train_step_time", "train_step_time_ms"),
    ("train_batch_size", "train_batch_size"),
    ("train_img_size", "train_img_size"),
    ("param_count", "param_count_m"),
]

# Old timm names (timm 0.6.x, as in the benchmark) that current timm maps to
# a models.txt name via register_model_deprecations (timm/models/xception.py,
# timm/models/resnetv2.py). Same architecture, different name and default
# pretrained config: reported as near-misses, not written.
DEPRECATED_NAMES = {
    "xception": "legacy_xception",
    "resnetv2_50x1_bitm": "resnetv2_50x1_bit.goog_in21k_ft_in1k",
    "resnetv2_50x1_bit_distilled": "resnetv2_50x1_bit.goog_distilled_in1k",
}


def read_models(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def read_timm_csv(path):
    with open(path, newline="") as f:
        return {r["model"]: r for r in csv.DictReader(f)}


def near_misses(name, bench_names):
    out = []
    for old, new in DEPRECATED_NAMES.items():
        if new.split(".")[0] == name and old in bench_names:
            out.append((old, "timm deprecation maps %s -> %s" % (old, new)))
    for k in bench_names:
        if k == name:
            continue
        if k.startswith(name) or name.startswith(k + "_"):
            out.append((k, "name differs by a suffix"))
    seen = set()
    return [x for x in out if not (x[0] in seen or seen.add(x[0]))]


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    models_path = os.path.join(here, "..", "timm", "models.txt")
    timm_csv_path = os.path.join(here, "..", "timm", "timm.csv")
    args = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--models", "--timm-csv") and i + 1 < len(argv):
            if a == "--models":
                models_path = argv[i + 1]
            else:
                timm_csv_path = argv[i + 1]
            i += 2
            continue
        args.append(a)
        i += 1
    if len(args) != 1:
        raise SystemExit(
            "usage: timm_rtx3090_extract.py [--models models.txt] [--timm-csv timm.csv] "
            "benchmark-train-amp-nchw-pt112-cu113-rtx3090.csv"
        )

    with open(args[0], newline="") as f:
        reader = csv.DictReader(f)
        missing_cols = [c for c, _ in OUT_COLUMNS if c not in reader.fieldnames]
        if missing_cols:
            raise SystemExit("benchmark CSV lacks columns %s" % missing_cols)
        bench = {}
        for r in reader:
            if r["model"] in bench:
                raise SystemExit("duplicate benchmark row for %r" % r["model"])
            bench[r["model"]] = r

    models = read_models(models_path)
    fixtures = read_timm_csv(timm_csv_path)

    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([out for _, out in OUT_COLUMNS])
    matched, absent, img_diff, param_diff = [], [], [], []
    for name in models:
        r = bench.get(name)
        if r is None:
            absent.append(name)
            continue
        writer.writerow([r[src] for src, _ in OUT_COLUMNS])
        matched.append(name)
        fx = fixtures.get(name)
        if fx is None:
            img_diff.append((name, r["train_img_size"], "not in timm.csv"))
            continue
        c, h, w = fx["input"].split("x")
        if not (h == w == r["train_img_size"]):
            img_diff.append((name, r["train_img_size"], fx["input"]))
        fx_m = "%.2f" % (int(fx["params"]) / 1e6)
        if abs(float(fx_m) - float(r["param_count"])) > 1e-9:
            param_diff.append((name, r["param_count"], fx["params"]))

    err = sys.stderr
    print("benchmark rows: %d; models.txt: %d" % (len(bench), len(models)), file=err)
    print("matched (rows written): %d; absent: %d" % (len(matched), len(absent)), file=err)
    print("train_img_size == fixture H == W: %d of %d" % (len(matched) - len(img_diff), len(matched)), file=err)
    for name, img, inp in img_diff:
        print("  img differs: %s benchmark %s, fixture %s" % (name, img, inp), file=err)
    print("param_count (M) != timm.csv params/1e6 rounded: %d" % len(param_diff), file=err)
    for name, pc, p in param_diff:
        print("  params differ: %s benchmark %sM, fixture %s" % (name, pc, p), file=err)
    print("absent from the benchmark:", file=err)
    for name in absent:
        nm = near_misses(name, bench)
        extra = ""
        if nm:
            extra = "  near-miss: " + "; ".join(
                "%s (%s, img %s, batch %s)" % (k, why, bench[k]["train_img_size"], bench[k]["train_batch_size"])
                for k, why in nm
            )
        print("  %s%s" % (name, extra), file=err)


if __name__ == "__main__":
    main(sys.argv)
