#!/usr/bin/env python3
"""Extract measured CNN training throughput from Lambda's public benchmark repos.

Usage:
  python3 lambda_extract.py DLB_GITDIR [TF_GITDIR] [--outdir DIR] [--report FILE]

DLB_GITDIR: git dir of github.com/lambdal/deeplearning-benchmark
TF_GITDIR : git dir of github.com/lambdal/lambda-tensorflow-benchmark (optional)

Everything is read from the HEAD commit with `git show` / `git ls-tree`
(works on bare mirrors). Stdlib only; output is sorted and deterministic.

Outputs (in --outdir, default: directory of this script):
  lambda_pytorch_resnet50.csv
    config,gpu_label,device_string,gpus,precision,memory_format,batch_per_gpu,images_per_s,source
  lambda_tf.csv
    config,gpu_label,device_string,gpus,model,precision,batch_per_gpu,images_per_s,source
and a plain-text verification report (--report, default stdout) that records,
for every emitted row, how the published CSV number compares with the value
recomputed from the raw logs, plus every dropped row and the reason.
"""
import argparse
import ast
import csv
import io
import os
import re
import subprocess
import sys
from collections import OrderedDict, defaultdict


# --------------------------------------------------------------------------
# git helpers
# --------------------------------------------------------------------------
class Repo:
    def __init__(self, gitdir, slug):
        self.gitdir = gitdir
        self.slug = slug
        self.commit = self._git("rev-parse", "HEAD").strip()
        self._files = None

    def _git(self, *args):
        return subprocess.run(
            ["git", "--git-dir", self.gitdir] + list(args),
            check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        ).stdout.decode("utf-8", "replace")

    def files(self):
        if self._files is None:
            out = self._git("ls-tree", "-r", "--name-only", "-z", self.commit)
            self._files = sorted(p for p in out.split("\0") if p)
        return self._files

    def exists(self, path):
        import bisect
        fl = self.files()
        i = bisect.bisect_left(fl, path)
        return i < len(fl) and fl[i] == path

    def under(self, prefix):
        if not prefix.endswith("/"):
            prefix += "/"
        return [p for p in self.files() if p.startswith(prefix)]

    def show(self, path):
        return self._git("show", "%s:%s" % (self.commit, path))

    def src(self, path, row=None):
        s = "%s@%s:%s" % (self.slug, self.commit, path)
        if row is not None:
            s += "#" + row
        return s


def read_csv_rows(text):
    rdr = csv.reader(io.StringIO(text))
    header = next(rdr)
    rows = [r for r in rdr if r and any(c.strip() for c in r)]
    return header, rows


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def literal_assigns(pysrc):
    """Return {name: literal} for top-level `name = <literal>` assignments."""
    out = {}
    for node in ast.parse(pysrc).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


# --------------------------------------------------------------------------
# PyTorch (deeplearning-benchmark)
# --------------------------------------------------------------------------
PT_TASK = {"AMP": "PyTorch_resnet50_AMP", "FP32": "PyTorch_resnet50_FP32"}
PT_SETS = [
    # (throughput csv, batch-size csv or None, precision, kind)
    ("pytorch/pytorch-train-throughput-fp16.csv", "pytorch/pytorch-train-bs-fp16.csv", "AMP", "v1"),
    ("pytorch/pytorch-train-throughput-fp32.csv", "pytorch/pytorch-train-bs-fp32.csv", "FP32", "v1"),
    ("pytorch/pytorch-train-throughput-v2-fp16.csv", None, "AMP", "v2"),
    ("pytorch/pytorch-train-throughput-v2-fp32.csv", None, "FP32", "v2"),
    ("pytorch/csv_v1_v2/pytorch-train-throughput-fp16.csv", "pytorch/csv_v1_v2/pytorch-train-bs-fp16.csv", "AMP", "v1v2"),
    ("pytorch/csv_v1_v2/pytorch-train-throughput-fp32.csv", "pytorch/csv_v1_v2/pytorch-train-bs-fp32.csv", "FP32", "v1v2"),
]
PT_PRECISION_CSV = {"AMP": "fp16", "FP32": "fp32"}


def parse_dllogger_params(line):
    """'DLL <ts> - PARAMETER a : 1  b : x ...' -> dict."""
    body = line.split("PARAMETER", 1)[1]
    out = {}
    for item in re.split(r"\s{2,}", body.strip()):
        if " : " in item:
            k, v = item.split(" : ", 1)
            out[k.strip()] = v.strip()
    return out


def pt_run_info(repo, resdir, task):
    """Parse one results/<system>/<task>/ folder."""
    d = "%s/%s" % (resdir, task)
    info = {"dir": d, "logs": [], "para": None, "params": []}
    for p in repo.under(d):
        base = p.rsplit("/", 1)[1]
        if base == "benchmark.para":
            kv = {}
            for ln in repo.show(p).splitlines():
                parts = ln.split()
                if len(parts) == 2:
                    kv[parts[0]] = int(parts[1])
            info["para"] = kv
        elif base.endswith(".txt"):
            txt = repo.show(p)
            ips = 0.0
            params = None
            for ln in txt.splitlines():
                if "PARAMETER data" in ln and params is None:
                    params = parse_dllogger_params(ln)
                if re.match(r"^.*Summary: train.loss.*$", ln):
                    try:
                        ips = float(ln.split(" ")[11])  # same field as compile_results_pytorch*.py
                    except (IndexError, ValueError):
                        pass
            info["logs"].append((p, ips))
            if params:
                info["params"].append(params)
    good = [v for _, v in info["logs"] if v > 0]
    info["n_ok"] = len(good)
    # compile_results_pytorch.py: int(round(total / count, 2))
    info["ips_recomputed"] = int(round(sum(good) / (len(good) + 1e-9), 2)) if good else 0
    return info


def pt_sys_info(repo, resdir):
    p = resdir + "/sys_pytorch.txt"
    gpu, torch_v = [], []  # gpu: every recorded GPU line, in file order
    if repo.exists(p):
        for ln in repo.show(p).splitlines():
            if ln.startswith("GPU: "):
                g = ln[5:].strip().replace("_", " ")
                if g:
                    gpu.append(g)
            elif ln.startswith("PyTorch Version: "):
                t = ln.split(":", 1)[1].strip()
                if t not in torch_v:
                    torch_v.append(t)
    return gpu, torch_v


# Fallback device strings (nvidia-smi style) when a results folder has no sys_pytorch.txt
# or records an empty GPU name. Keyed by regex on the results-folder name.
PT_DEVICE_FALLBACK = [
    (r"H100_80GB_SXM5", "NVIDIA H100 80GB HBM3"),
    (r"H100_80GB_PCIe", "NVIDIA H100 PCIe"),
    (r"A100_80GB_SXM4", "NVIDIA A100-SXM4-80GB"),
    (r"A100_80GB_PCIe", "NVIDIA A100 80GB PCIe"),
    (r"B200", "NVIDIA B200"),
]


def pt_extract(repo, report):
    rows_out = []
    dropped = []
    comp = literal_assigns(repo.show("pytorch/scripts/compile_results_pytorch.py"))
    v1map = {}
    for dname in ("list_system_single", "list_system_multiple"):
        for key, val in comp[dname].items():
            (version, ngpu), name = val[0], val[1]
            v1map[name] = (key, ngpu, version)

    # load all throughput / bs csvs
    tables = {}
    for tp, bs, prec, kind in PT_SETS:
        h, r = read_csv_rows(repo.show(tp))
        tables[tp] = (h, r)
        if bs:
            tables[bs] = read_csv_rows(repo.show(bs))

    # candidate systems for matching csv_v1_v2 rows: v1 rows (by name->dir) and v2 rows (dir)
    def vectors(kind):
        vec = defaultdict(dict)  # dir -> {prec: {col: val}}
        for tp, bs, prec, k in PT_SETS:
            if k != kind:
                continue
            h, rows = tables[tp]
            for r in rows:
                name = r[0]
                if kind == "v1":
                    if name not in v1map:
                        continue
                    d = "pytorch/results/" + v1map[name][0]
                else:
                    d = "pytorch/results_v2/" + name
                vec[d][prec] = {c: fnum(v) for c, v in zip(h[1:], r[1:])}
        return vec

    cand = {}
    cand.update(vectors("v1"))
    cand.update(vectors("v2"))

    # csv_v1_v2 row -> results dir by exact equality of every shared benchmark column, both precisions
    v1v2_rows = defaultdict(dict)
    for tp, bs, prec, kind in PT_SETS:
        if kind != "v1v2":
            continue
        h, rows = tables[tp]
        for r in rows:
            v1v2_rows[r[0]][prec] = {c: fnum(v) for c, v in zip(h[1:], r[1:])}
    bench_cols = ["ssd", "bert_base_squad", "bert_large_squad", "gnmt", "resnet50", "tacotron2", "waveglow"]
    v1v2map = {}
    for name, byprec in sorted(v1v2_rows.items()):
        hits = []
        for d, cp in sorted(cand.items()):
            ok = True
            for prec in ("AMP", "FP32"):
                if prec not in byprec or prec not in cp:
                    ok = False
                    break
                for c in bench_cols:
                    if byprec[prec].get(c) != cp[prec].get(c):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                hits.append(d)
        v1v2map[name] = hits
        report.append("MATCH csv_v1_v2 row %r -> %s" % (name, hits if hits else "NO MATCH"))

    for tp, bs, prec, kind in PT_SETS:
        h, rows = tables[tp]
        ci = h.index("resnet50")
        bs_lookup = {}
        if bs:
            bh, brows = tables[bs]
            bci = bh.index("resnet50")
            bs_lookup = {r[0]: (fnum(r[1]), fnum(r[bci])) for r in brows}
        for r in rows:
            name = r[0]
            val = fnum(r[ci])
            srcid = repo.src(tp, name)
            if val is None or val <= 0:
                dropped.append((srcid, "resnet50 throughput %r not > 0" % r[ci]))
                continue
            # resolve results dir
            if kind == "v1":
                if name not in v1map:
                    dropped.append((srcid, "row not in compile_results_pytorch.py mapping"))
                    continue
                resdir = "pytorch/results/" + v1map[name][0]
            elif kind == "v2":
                resdir = "pytorch/results_v2/" + name
            else:
                hits = v1v2map.get(name, [])
                if len(hits) != 1:
                    dropped.append((srcid, "could not map uniquely to a results folder: %s" % hits))
                    continue
                resdir = hits[0]
            config = resdir.rsplit("/", 1)[1]
            info = pt_run_info(repo, resdir, PT_TASK[prec])
            gpu_names, torch_v = pt_sys_info(repo, resdir)

            # GPU count
            ngpu = None
            if info["para"] and "GPU" in info["para"]:
                ngpu = info["para"]["GPU"]
            csv_ngpu = fnum(r[1]) if h[1] == "num_gpu" else None
            if ngpu is None and csv_ngpu:
                ngpu = int(csv_ngpu)
            if ngpu is None:
                m = re.search(r"(?:^|_)(\d+)x(?=[A-Z])", config)
                ngpu = int(m.group(1)) if m else 1
            # batch per GPU
            bpg = None
            how = []
            if info["para"] and "GLOBAL_BATCH" in info["para"]:
                bpg = info["para"]["GLOBAL_BATCH"] // ngpu
                how.append("para=%d/%d" % (info["para"]["GLOBAL_BATCH"], ngpu))
            log_bs = sorted({p.get("batch_size") for p in info["params"] if p.get("batch_size")})
            if log_bs:
                how.append("log batch_size=%s" % ",".join(log_bs))
                if bpg is None and len(log_bs) == 1:
                    bpg = int(log_bs[0])
            if name in bs_lookup:
                bn, bv = bs_lookup[name]
                how.append("bs_csv=%s/%s" % (bv, bn))
                if bpg is None and bv and bn:
                    bpg = int(bv) // int(bn)
                if bv and bn and bpg is not None and int(bv) != bpg * int(bn):
                    how.append("BS_CSV_MISMATCH")
            mfs = sorted({p.get("memory_format", "?") for p in info["params"]})
            mf = "/".join(m.upper() for m in mfs) if mfs else "NCHW?"
            backends = sorted({p.get("data_backend", "?") for p in info["params"]})
            amps = sorted({p.get("amp", "?") for p in info["params"]})
            if gpu_names:
                # sys_pytorch.txt is appended to on every run (">>"); one folder (4090_v1)
                # also holds lines from another machine, so take the most frequent name
                # (ties -> the one recorded last).
                cnt = defaultdict(int)
                for g in gpu_names:
                    cnt[g] += 1
                best = max(cnt.values())
                dev = [g for g in gpu_names if cnt[g] == best][-1]
            else:
                dev = ""
                for pat, s in PT_DEVICE_FALLBACK:
                    if re.search(pat, config):
                        dev = s
                        break
            if csv_ngpu and int(csv_ngpu) != ngpu:
                how.append("NUM_GPU_MISMATCH csv=%s" % csv_ngpu)
            check = "OK" if info["ips_recomputed"] == int(val) else "DIFF(recomputed=%s)" % info["ips_recomputed"]
            report.append(
                "PT %-4s %-58s csv=%-7d logs=%d %s | gpus=%d bpg=%s [%s] mf=%s backend=%s amp=%s | dev=%r torch=%s"
                % (prec, config + " <" + tp.split("/")[-2 if "csv_v1_v2" in tp else -1] + ">", int(val),
                   info["n_ok"], check, ngpu, bpg, "; ".join(how), mf, ",".join(backends), ",".join(amps),
                   "|".join("%s x%d" % (g, gpu_names.count(g)) for g in sorted(set(gpu_names))), ",".join(torch_v))
            )
            rows_out.append(OrderedDict([
                ("config", config),
                ("gpu_label", name),
                ("device_string", dev),
                ("gpus", ngpu),
                ("precision", prec),
                ("memory_format", mf),
                ("batch_per_gpu", bpg if bpg is not None else ""),
                ("images_per_s", int(val)),
                ("source", srcid),
            ]))
    return rows_out, dropped


# --------------------------------------------------------------------------
# TensorFlow (lambda-tensorflow-benchmark)
# --------------------------------------------------------------------------
TF_MODELS = ["resnet50", "resnet152", "inception3", "inception4", "vgg16", "alexnet"]
TF_PREC = {"fp16": "FP16", "fp32": "FP32"}


def tf_extract(repo, report):
    rows_out, dropped = [], []
    ls = literal_assigns(repo.show("tools/log2csv.py"))["list_system"]
    name2 = {}
    for key, (gpus, names) in ls.items():
        for n, nm in zip(gpus, names):
            name2[nm] = (key, n)
    for p in ("fp16", "fp32"):
        tp = "tf-train-throughput-%s.csv" % p
        bp = "tf-train-bs-%s.csv" % p
        h, rows = read_csv_rows(repo.show(tp))
        bh, brows = read_csv_rows(repo.show(bp))
        bsl = {r[0]: dict(zip(bh[1:], r[1:])) for r in brows}
        for r in rows:
            name = r[0]
            vals = dict(zip(h[1:], r[1:]))
            if name not in name2:
                for m in TF_MODELS:
                    dropped.append((repo.src(tp, name + "/" + m), "row not in tools/log2csv.py list_system"))
                continue
            key, ngpu = name2[name]
            folder = "logs/%s.logs/syn-replicated-%s-%dgpus" % (key, p, ngpu)
            meta_gpu = ""
            mp = "logs/%s.logs/metadata" % key
            tfv = ""
            if repo.exists(mp):
                for ln in repo.show(mp).splitlines():
                    parts = ln.split("\t")
                    if parts[0] == "GPU 0" and len(parts) > 1:
                        meta_gpu = parts[1].strip()
                    if parts[0] == "TF" and len(parts) > 1:
                        tfv = parts[1].strip()
            for m in TF_MODELS:
                srcid = repo.src(tp, name + "/" + m)
                v = fnum(vals.get(m))
                if v is None or v <= 0:
                    dropped.append((srcid, "%s throughput %r not > 0" % (m, vals.get(m))))
                    continue
                cands = sorted({q.split("/")[3] for q in repo.under(folder)
                                if re.match(re.escape(m) + r"-\d+$", q.split("/")[3])})
                bpg = None
                logv = None
                dev = meta_gpu
                hdr = {}
                if len(cands) == 1:
                    bpg = int(cands[0].rsplit("-", 1)[1])
                    lp = "%s/%s/throughput/1" % (folder, cands[0])
                    if repo.exists(lp):
                        txt = repo.show(lp)
                        lines = txt.splitlines()
                        try:
                            logv = int(round(float(lines[-2].split(" ")[-1])))  # log2csv.py get_result()
                        except (IndexError, ValueError):
                            logv = None
                        for ln in lines:
                            for k in ("TensorFlow:", "Data format:", "Dataset:", "Batch size:"):
                                if ln.startswith(k) and k not in hdr:
                                    hdr[k] = ln.split(":", 1)[1].strip()
                            if not dev:
                                mm = re.search(r"physical GPU \(device: 0, name: ([^,]+),", ln)
                                if mm:
                                    dev = mm.group(1).strip()
                else:
                    dropped.append((srcid, "batch-size folder for %s ambiguous/missing under %s: %s" % (m, folder, cands)))
                    continue
                bsv = fnum(bsl.get(name, {}).get(m))
                chk = []
                if bsv is not None and int(bsv) != bpg * ngpu:
                    chk.append("BS_CSV_MISMATCH(%s)" % bsv)
                chk.append("OK" if logv == int(v) else "DIFF(log=%s)" % logv)
                report.append("TF %s %-52s %-10s csv=%-7d %s gpus=%d bpg=%d dev=%r tf=%s hdr=%s"
                              % (p, key, m, int(v), " ".join(chk), ngpu, bpg, dev, tfv, hdr))
                rows_out.append(OrderedDict([
                    ("config", key),
                    ("gpu_label", name),
                    ("device_string", dev),
                    ("gpus", ngpu),
                    ("model", m),
                    ("precision", TF_PREC[p]),
                    ("batch_per_gpu", bpg),
                    ("images_per_s", int(v)),
                    ("source", srcid),
                ]))
    return rows_out, dropped


def write_csv(path, rows, header):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([r[k] for k in header])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dlb_gitdir")
    ap.add_argument("tf_gitdir", nargs="?")
    ap.add_argument("--outdir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--report", default="-")
    a = ap.parse_args()

    report = []
    dlb = Repo(a.dlb_gitdir, "lambdal/deeplearning-benchmark")
    pt_rows, pt_drop = pt_extract(dlb, report)
    pt_rows.sort(key=lambda r: (r["source"].split(":", 1)[1], r["precision"], r["gpu_label"]))
    hdr = ["config", "gpu_label", "device_string", "gpus", "precision", "memory_format",
           "batch_per_gpu", "images_per_s", "source"]
    write_csv(os.path.join(a.outdir, "lambda_pytorch_resnet50.csv"), pt_rows, hdr)
    drops = list(pt_drop)

    tf_rows = []
    if a.tf_gitdir:
        tfr = Repo(a.tf_gitdir, "lambdal/lambda-tensorflow-benchmark")
        tf_rows, tf_drop = tf_extract(tfr, report)
        tf_rows.sort(key=lambda r: (r["precision"], r["config"], r["gpus"], r["model"]))
        drops += tf_drop
    hdr = ["config", "gpu_label", "device_string", "gpus", "model", "precision",
           "batch_per_gpu", "images_per_s", "source"]
    write_csv(os.path.join(a.outdir, "lambda_tf.csv"), tf_rows, hdr)

    out = ["commit deeplearning-benchmark: " + dlb.commit]
    if a.tf_gitdir:
        out.append("commit lambda-tensorflow-benchmark: " + tfr.commit)
    out.append("pytorch rows: %d; tf rows: %d; dropped: %d" % (len(pt_rows), len(tf_rows), len(drops)))
    out += report
    out += ["DROP %s : %s" % d for d in drops]
    text = "\n".join(out) + "\n"
    if a.report == "-":
        sys.stdout.write(text)
    else:
        with open(a.report, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
