#!/usr/bin/env python3
"""Extract the "Training performance results" tables from NVIDIA DeepLearningExamples READMEs.

Usage: dle_extract.py /work/.mirror/NVIDIA+DeepLearningExamples/repo > dle.csv

Reads each README at a given commit with `git show COMMIT:FILE` (stdlib only), walks the
section between "Training performance results" and "Inference performance results",
takes the GPU kind from each "##### Training performance: NVIDIA ..." heading and parses
every markdown table under it: GPUs, batch/GPU, and one row per throughput column
(precision from the column name).  Per-GPU batch that is not in the table comes from the
benchmark scripts (see BATCH_OVERRIDE, with the script named in the notes column).
"""
import csv, re, subprocess, sys

REPO = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/NVIDIA+DeepLearningExamples/repo"

SSD = "PyTorch/Detection/SSD/README.md"
MRCNN = "PyTorch/Segmentation/MaskRCNN/README.md"
# (model, framework, file, commit) -- HEAD versions plus the older README versions whose
# tables differ (each commit is the one that (re)wrote the table).
SOURCES = [
    ("SSD300 RN50", "PyTorch", SSD, "04099020ae68b5767bf5c74db3dcace0c215c730"),  # 22.10 (HEAD)
    ("SSD300 RN50", "PyTorch", SSD, "0b3f770b0a87a5bfc549c2ecaaf140f749f24ce0"),  # 21.05
    ("SSD300 RN50", "PyTorch", SSD, "31ca062d9399e28109ba901a1842b9eb7afa5989"),  # 20.06
    ("SSD300 RN50", "PyTorch", SSD, "4cce4d88e61c916ecd4cc1755d805b1b5323ff12"),  # 19.08
    ("SSD300 RN50", "PyTorch", SSD, "7a8544e0a24df6c0fec06c044e5901de63b50ccd"),  # 19.03
    ("Mask R-CNN R50-FPN", "PyTorch", MRCNN, "9a36fc3197bfab7536e0e46c360716973f3f2f40"),  # 21.12 (HEAD)
    ("Mask R-CNN R50-FPN", "PyTorch", MRCNN, "fa59dd505abfc305a8a48ef97c0e3ed33fa4e38b"),  # 20.06
    ("Mask R-CNN R50-FPN", "PyTorch", MRCNN, "7a8544e0a24df6c0fec06c044e5901de63b50ccd"),  # 19.02
    ("Mask R-CNN R50-FPN", "TensorFlow2", "TensorFlow2/Segmentation/MaskRCNN/README.md",
     "49e23b4597a6fca461321a085d8eb8abf1e215e2"),
    ("EfficientDet-D0", "TensorFlow2", "TensorFlow2/Detection/Efficientdet/README.md",
     "c1b3f4596b49332274ed096b484c43fd5f0a52da"),
    ("EfficientDet-D0", "PyTorch", "PyTorch/Detection/Efficientdet/README.md",
     "654ba0434bc3410e360528569797a9e85dbccccd"),
    ("SSD320 v1.2 (TF OD API)", "TensorFlow1", "TensorFlow/Detection/SSD/README.md",
     "9de48bc9ca8ce635960620478a39dd332ed74ff6"),
]
# PyTorch EfficientDet tables have no batch column: per-GPU -b from scripts/D0/train-benchmark_*.sh
BATCH_OVERRIDE = {
    ("PyTorch/Detection/Efficientdet/README.md", "A100", "TF32"): (80, "scripts/D0/train-benchmark_TF32_A100-80G.sh -b 80"),
    ("PyTorch/Detection/Efficientdet/README.md", "A100", "AMP"): (150, "scripts/D0/train-benchmark_AMP_A100-80G.sh -b 150"),
    ("PyTorch/Detection/Efficientdet/README.md", "V100", "FP32"): (30, "scripts/D0/train-benchmark_FP32_V100-32G.sh -b 30"),
    ("PyTorch/Detection/Efficientdet/README.md", "V100", "AMP"): (60, "scripts/D0/train-benchmark_AMP_V100-32G.sh -b 60"),
}


def cluster_of(gpu):
    g = gpu.lower()
    if "a100" in g:
        return "dgx-a100-80gb" if "80" in g else "dgx-a100-40gb"
    if "dgx-2" in g:
        return "dgx-2 (v100 32gb)"
    if "v100" in g:
        return "dgx-1v100-32gb" if "32" in g else "dgx-1v100-16gb"
    return g


def precision_of(col):
    c = col.lower()
    if "mixed" in c or "fp16" in c or "amp" in c:
        return "AMP"
    if "tf32" in c or "tp32" in c:
        return "TF32"
    if "fp32" in c or "fp 32" in c:
        return "FP32"
    return None


def num(s):
    s = s.strip().replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def parse(model, fw, path, commit):
    txt = subprocess.run(["git", "-C", REPO, "show", f"{commit}:{path}"], capture_output=True,
                         text=True, check=True).stdout
    date = subprocess.run(["git", "-C", REPO, "log", "-1", "--format=%cs", commit],
                          capture_output=True, text=True).stdout.strip()
    lines = txt.splitlines()
    on = False
    gpu = None
    container = None
    header = None
    rows = []
    for ln in lines:
        low = ln.lower()
        if re.match(r"^#+\s*training performance results", low):
            on = True
            continue
        if on and re.match(r"^#+\s*inference performance", low):
            break
        if not on:
            continue
        m = re.match(r"^#+\s*(?:training performance:\s*)?(nvidia .*)$", ln.strip(), re.I)
        if m:
            gpu = m.group(1).strip()
            header = None
            container = None
            continue
        if gpu is None and ("dgx-1" in low and "v100" in low):
            # 19.03 SSD README: no GPU heading, the text names the system
            gpu = "NVIDIA DGX-1 (8x V100 16GB)"
        mc = re.search(r"(?:pytorch-|tensorflow-|pytorch |tensorflow 2\.x |\b)(\d\d\.\d\d)-(py3|tf2)", ln, re.I)
        if mc:
            container = mc.group(1) + "-" + mc.group(2)
        if "|" not in ln:
            if ln.strip():
                header = header if ln.strip().startswith("|") else header
            continue
        cells = [c.strip().strip("*").strip() for c in ln.strip().strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", c) or c == "" for c in cells):
            continue
        if any(re.search(r"gpus", c, re.I) for c in cells) and num(cells[0]) is None:
            header = cells
            continue
        if header is None or num(cells[0]) is None:
            continue
        r = dict(zip(header, cells))
        gcol = next(h for h in header if re.search(r"gpus", h, re.I))
        bcol = next((h for h in header if re.search(r"batch", h, re.I)), None)
        for h in header:
            hl = h.lower()
            if re.search(r"speed|scaling", hl) or not re.search(r"throughput|img/s|items/sec", hl):
                continue
            val = num(r.get(h, ""))
            if val is None:
                continue
            prec = precision_of(h)
            ngpu = int(num(r[gcol]))
            note = ""
            bs = int(num(r[bcol])) if bcol and num(r.get(bcol, "")) is not None else None
            mb = re.search(r"bs\s*=\s*(\d+)", hl)
            if mb:
                bs = int(mb.group(1))
                note = "batch/GPU from column header"
            if bs is None:
                key = (path, "A100" if "A100" in gpu else "V100", prec)
                if key in BATCH_OVERRIDE:
                    bs, note = BATCH_OVERRIDE[key]
                    note = "batch/GPU from " + note
            rows.append(dict(model=model, framework=fw, gpu=re.sub(r"\s+", " ", gpu.replace("NVIDIA ", "")),
                             cluster=cluster_of(gpu), gpus=ngpu, batch_per_gpu=bs,
                             precision=prec, images_per_s=val,
                             images_per_s_per_gpu=round(val / ngpu, 2),
                             container=container or "", readme_date=date,
                             commit=commit, file=path, notes=note))
    return rows


def main():
    out = []
    for s in SOURCES:
        out += parse(*s)
    cols = ["model", "framework", "gpu", "cluster", "gpus", "batch_per_gpu", "precision",
            "images_per_s", "images_per_s_per_gpu", "container", "readme_date", "commit", "file", "notes"]
    w = csv.DictWriter(sys.stdout, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    for r in out:
        w.writerow(r)


if __name__ == "__main__":
    main()
