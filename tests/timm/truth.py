#!/usr/bin/env python3
"""PyTorch's own numbers for timm (PyTorch Image Models) networks, as test fixtures.

The timm twin of ../torch/truth.py. For each network NAME (a name of
`timm.list_models()`, built by `timm.create_model(NAME, pretrained=False)`)
at its own default input size (`model.pretrained_cfg['input_size']`, else
`timm.data.resolve_data_config`), it writes one CSV row to stdout:

  model, family (the timm model file, e.g. resnest), input (CxHxW),
  params (sum of p.numel() over model.parameters()),
  forward FLOPs per sample (torch.utils.flop_counter.FlopCounterMode in eval
  mode, batch 1: every op it counts: convolution, mm, addmm, bmm, baddbmm,
  scaled dot-product attention, ..., at 2 per multiply-add),
  forward FLOPs per sample of convolutions and linear layers only
  (convolution, addmm, mm: the bmm/baddbmm/attention products excluded),
  bytes per sample autograd saves for the backward pass in fp32 and in bf16
  autocast (scripts/profile_torch.py's saved_bytes: train mode,
  saved_tensors_hooks, parameters excluded, each storage once; the slope
  between batch 1 and 2, or 2 and 3 for a network that cannot train on one
  sample), the batches of that slope,
  exported (1 when torch.onnx.export wrote every graph asked for, else the
  error, commas replaced), and onnx_ops (the distinct op types of the
  lightened opset-17 graph, sorted, separated by ';').

With --onnx DIR it also writes DIR/timm_NAME.opsetK.onnx for each --opset K
(default 17): torch.onnx.export (TorchScript exporter, dynamo=False, eval
mode, no constant folding, so batch norms stay, training=PRESERVE), with
every weight larger than 16 items replaced by a ConstantOfShape node
(scripts/profile_torch.py's lighten) so that the file stays small. Each
written file is read back with onnx.load.

Each network runs in a forked child (so that one network's memory, time
or crash does not touch the next): --timeout S (default 300) kills a
child running longer, --max-rss GB (default 8) one using more memory; the
row then says so in `exported`, with empty numbers.

Setup: python3 -m venv /work/.torchenv && /work/.torchenv/bin/pip install torch torchvision timm onnx onnxscript
Use:   nice -n 10 /work/.torchenv/bin/python tests/timm/truth.py --onnx DIR --opset 13 --opset 17 resnet18 ... > timm.csv
The CSV and the ONNX files are committed; tests read them and never run PyTorch.
"""
import os
import select
import shutil
import signal
import sys
import time
import warnings

import torch

# the profiler's own ways of counting the bytes autograd saves and of
# lightening an exported graph (scripts/profile_torch.py), so that the
# fixtures and a user's profile count alike
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from profile_torch import lighten, saved_bytes  # noqa: E402

CPU = torch.device("cpu")
HEADER = ("model,family,input,params,forward_flops_per_sample,conv_linear_flops_per_sample,"
          "saved_fp32_bytes_per_sample,saved_bf16_bytes_per_sample,slope_batches,exported,onnx_ops")
CONV_LINEAR = {"convolution", "_convolution", "addmm", "mm"}


def clean(text, n=300):
    return str(text).replace(",", ";").replace("\n", " ").replace("\r", " ")[:n]


def family(name):
    import timm
    return timm.models._registry._model_to_module.get(name, "")


def input_size(model):
    import timm
    size = (getattr(model, "pretrained_cfg", None) or {}).get("input_size")
    if not size:
        size = timm.data.resolve_data_config({}, model=model)["input_size"]
    return tuple(int(s) for s in size)


def flops(model, x):
    from torch.utils.flop_counter import FlopCounterMode
    with FlopCounterMode(display=False) as fc, torch.no_grad():
        model(x)
    total = fc.get_total_flops()
    per_op = fc.get_flop_counts().get("Global", {})
    conv_linear = sum(v for op, v in per_op.items() if str(op).split(".")[1] in CONV_LINEAR)
    return total, conv_linear


def saved(model, shape):
    """Saved bytes per sample: the slope between batch 1 and 2, or 2 and 3
    when a batch of one cannot train (a batch norm after a global pool)."""
    xs = {b: torch.randn(b, *shape) for b in (1, 2, 3)}
    try:
        lo, hi = 1, 2
        s32 = saved_bytes(model, xs[2], CPU, "fp32") - saved_bytes(model, xs[1], CPU, "fp32")
        s16 = saved_bytes(model, xs[2], CPU, "bf16") - saved_bytes(model, xs[1], CPU, "bf16")
    except ValueError:
        lo, hi = 2, 3
        s32 = saved_bytes(model, xs[3], CPU, "fp32") - saved_bytes(model, xs[2], CPU, "fp32")
        s16 = saved_bytes(model, xs[3], CPU, "bf16") - saved_bytes(model, xs[2], CPU, "bf16")
    return s32, s16, "%d-%d" % (lo, hi)


def export(model, x, name, onnx_dir, opsets):
    import onnx
    exported, ops = "1", ""
    for opset in opsets:
        full = os.path.join(onnx_dir, "%s.full.onnx" % name)
        light = os.path.join(onnx_dir, "timm_%s.opset%d.onnx" % (name, opset))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.onnx.export(model, x, full, dynamo=False, opset_version=opset, input_names=["input"],
                                  output_names=["logits"], do_constant_folding=False,
                                  training=torch.onnx.TrainingMode.PRESERVE)
            shutil.copyfile(full, light)
            lighten(light)
            g = onnx.load(light).graph
            if opset == 17:
                ops = ";".join(sorted({n.op_type for n in g.node}))
        except Exception as e:  # noqa: BLE001 - the row says why
            if os.path.exists(light):
                os.remove(light)
            msg = "opset %d: %s: %s" % (opset, type(e).__name__, e)
            exported = clean(msg) if exported == "1" else exported + " | " + clean(msg, 150)
        finally:
            if os.path.exists(full):
                os.remove(full)
    return exported, ops


def row(name, onnx_dir, opsets):
    import timm
    torch.set_num_threads(2)
    warnings.filterwarnings("ignore")
    torch.manual_seed(0)
    m = timm.create_model(name, pretrained=False)
    shape = input_size(m)
    n = sum(p.numel() for p in m.parameters())
    m.train()
    s32, s16, batches = saved(m, shape)
    m.eval()
    x1 = torch.randn(1, *shape)
    total, conv_linear = flops(m, x1)
    exported, ops = export(m, x1, name, onnx_dir, opsets) if onnx_dir else ("1", "")
    return "%s,%s,%s,%d,%d,%d,%d,%d,%s,%s,%s" % (
        name, family(name), "x".join(map(str, shape)), n, total, conv_linear, s32, s16, batches, exported, ops)


def rss_gb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 2 ** 20
    except OSError:
        pass
    return 0.0


def run_isolated(name, onnx_dir, opsets, timeout, max_rss):
    """The row of one network, computed in a forked child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        # the TorchScript exporter prints the whole graph when it fails: not to the terminal
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        try:
            text = row(name, onnx_dir, opsets)
        except BaseException as e:  # noqa: BLE001 - the row says why
            text = "%s,%s,,,,,,,,%s," % (name, family(name), clean("failed: %s: %s" % (type(e).__name__, e)))
        os.write(w, text.encode())
        os.close(w)
        os._exit(0)
    os.close(w)
    start, chunks, why, peak = time.time(), [], None, 0.0
    while True:
        ready, _, _ = select.select([r], [], [], 1.0)
        if ready:
            data = os.read(r, 1 << 16)
            if not data:
                break
            chunks.append(data)
            continue
        peak = max(peak, rss_gb(pid))
        if time.time() - start > timeout:
            why = "skipped: over %ds on the CPU" % timeout
        elif peak > max_rss:
            why = "skipped: over %.0f GB of memory" % max_rss
        if why:
            os.kill(pid, signal.SIGKILL)
            break
    os.close(r)
    _, status = os.waitpid(pid, 0)
    text = b"".join(chunks).decode()
    if why or not text:
        why = why or "failed: child died (status %d)" % status
        text = "%s,%s,,,,,,,,%s," % (name, family(name), why)
    sys.stderr.write("%s: %.0fs, peak %.1f GB\n" % (name, time.time() - start, peak))
    return text


def main(argv):
    onnx_dir, opsets, names, timeout, max_rss, header = None, [], [], 300, 8.0, True
    i = 0
    while i < len(argv):
        if argv[i] == "--onnx":
            onnx_dir = argv[i + 1]
            i += 2
        elif argv[i] == "--opset":
            opsets.append(int(argv[i + 1]))
            i += 2
        elif argv[i] == "--timeout":
            timeout = float(argv[i + 1])
            i += 2
        elif argv[i] == "--max-rss":
            max_rss = float(argv[i + 1])
            i += 2
        elif argv[i] == "--no-header":
            header = False
            i += 1
        elif argv[i] == "--list":
            with open(argv[i + 1]) as f:
                names += [ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()]
            i += 2
        else:
            names.append(argv[i])
            i += 1
    opsets = opsets or [17]
    if onnx_dir:
        os.makedirs(onnx_dir, exist_ok=True)
    if header:
        print(HEADER, flush=True)
    for name in names:
        print(run_isolated(name, onnx_dir, opsets, timeout, max_rss), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
