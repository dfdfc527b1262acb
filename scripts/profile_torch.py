#!/usr/bin/env python3
"""Profile a PyTorch network on one device, ParaDL's way: each layer's time
measured once, the rest modelled (`paradl --profile DIR/profile.json`).

  python3 scripts/profile_torch.py --model torchvision:resnet50 --batch 32 --out prof
  python3 scripts/profile_torch.py --model my_net.py:build --batch 8 \
      --precision bf16 --device cuda --input-shape 3x224x224 --out prof
  python3 scripts/profile_torch.py --model torchvision:resnet50 --batch 8,32 --out prof

--model is `torchvision:NAME` (a torchvision network, built without weights)
or `FILE.py:FUNCTION` (a function of that file returning an nn.Module).
Needs only PyTorch (and torchvision for its networks, onnx to write the
graph).

--batch is one batch B, or two, B1,B2 (different): then every measurement
below but the memory ones is taken at both batches, so that ParaDL can
fit each layer's time as a line in the batch.

It measures, at the batch and precision given (fp32, tf32, or fp16/bf16
autocast with an fp32 master copy):
- each call of each leaf module: its forward and backward time, the module
  run alone on the inputs it meets in the network (ParaDL's method:
  each layer measured once, by itself; warm-up runs, then the median over
  --steps runs; CUDA events on a GPU, synchronized wall clocks elsewhere);
  the network's first module computes no input gradient;
- the whole training step, unhooked: forward, a loss, backward, an SGD step
  with momentum and zeroing the gradients (median over --steps steps);
- the device (name, SMs and memory from torch.cuda's properties on a GPU),
  its peak allocated memory over a step (CUDA only) and the bytes autograd
  saves for the backward pass, both at the (first) batch.

With two batches, `batch`, `iteration_s` and each layer's `forward_s` and
`backward_s` (and `layers_s`, their sum) are at the first; `batch2`,
`iteration2_s` and each layer's `forward2_s` and `backward2_s` at the
second (each layer timed at the first batch, then at the second, before
the next layer; the step's runs at the first, then at the second). With
one batch those four fields are left out.

It writes DIR/profile.json (format "paradl-profile/1", documented in
src/docs/importing.md) and DIR/model.onnx, the same network exported by torch.onnx
(TorchScript exporter, eval mode, no constant folding, its weights replaced
by ConstantOfShape nodes to keep the file small), whose node names carry
the module paths the profile's layers are named by.
"""
import argparse
import contextlib
import importlib.util
import json
import os
import platform
import statistics
import sys
import time

import torch

PRECISIONS = ("fp32", "tf32", "fp16", "bf16")


def build(spec):
    if spec.startswith("torchvision:"):
        import torchvision

        name = spec.split(":", 1)[1]
        kw = {"aux_logits": False, "init_weights": False} if name in ("inception_v3", "googlenet") else {}
        return getattr(torchvision.models, name)(weights=None, **kw), name
    path, _, function = spec.rpartition(":")
    if not path.endswith(".py") or not function:
        sys.exit("--model: give torchvision:NAME or FILE.py:FUNCTION")
    module_spec = importlib.util.spec_from_file_location("user_model", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return getattr(module, function)(), os.path.splitext(os.path.basename(path))[0]


class Clock:
    """Times on the device: CUDA events, or synchronized wall clocks."""

    def __init__(self, device):
        self.cuda = device.type == "cuda"
        self.device = device

    def mark(self):
        if self.cuda:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            return e
        if self.device.type == "mps":
            torch.mps.synchronize()
        return time.perf_counter()

    def seconds(self, start, end):
        if self.cuda:
            return start.elapsed_time(end) / 1e3
        return end - start

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize()
        elif self.device.type == "mps":
            torch.mps.synchronize()


def autocast(device, precision):
    if precision in ("fp16", "bf16"):
        dtype = torch.float16 if precision == "fp16" else torch.bfloat16
        return torch.autocast(device.type, dtype=dtype)
    return contextlib.nullcontext()


def step(model, x, optimizer, device, precision):
    with autocast(device, precision):
        out = model(x)
        loss = out.float().square().mean() if not isinstance(out, dict) else out["out"].float().square().mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def leaves(model):
    return [(name, m) for name, m in model.named_modules() if name and not list(m.children())]


def out_of_place(model):
    for m in model.modules():
        if isinstance(getattr(m, "inplace", None), bool):
            m.inplace = False


def layer_inputs(model, x, device, precision):
    """Every call of every leaf module in one forward pass: its inputs."""
    seen = {}
    handles = []
    for name, m in leaves(model):
        def pre(mod, args, name=name):
            seen.setdefault(name, []).append([a.detach().clone() if torch.is_tensor(a) else a for a in args])
        handles.append(m.register_forward_pre_hook(pre))
    with torch.no_grad(), autocast(device, precision):
        model(x)
    for h in handles:
        h.remove()
    return seen


def call_times(m, recorded, input_grad, device, precision, clock, warmup, steps):
    """One call of a module timed alone on its recorded inputs: the median
    forward and backward seconds over `steps` after `warmup`."""
    args = [
        a.clone().requires_grad_(input_grad and a.is_floating_point()) if torch.is_tensor(a) else a
        for a in recorded
    ]
    params = [p for p in m.parameters() if p.requires_grad]
    times = []
    for i in range(warmup + steps):
        with autocast(device, precision):
            t0 = clock.mark()
            out = m(*args)
            t1 = clock.mark()
        grads = [a for a in args if torch.is_tensor(a) and a.requires_grad] + params
        t2 = clock.mark()
        if grads and torch.is_tensor(out) and out.requires_grad:
            torch.autograd.grad(out, grads, torch.ones_like(out), allow_unused=True)
        t3 = clock.mark()
        clock.sync()
        if i >= warmup:
            times.append((clock.seconds(t0, t1), clock.seconds(t2, t3)))
    return statistics.median(f for f, _ in times), statistics.median(b for _, b in times)


def layer_times(model, xs, device, precision, clock, warmup, steps):
    """Each call of each leaf module timed alone, forward then backward, on
    inputs of the shapes and types it met (ParaDL's method: a layer
    measured once, by itself): the median over `steps` after `warmup`, at
    the batch of each input in `xs` (`forward_s`, `backward_s` at the
    first, `forward2_s`, `backward2_s` at a second)."""
    inputs = [layer_inputs(model, x, device, precision) for x in xs]
    calls = {name: len(seen) for name, seen in inputs[0].items()}
    for other in inputs[1:]:
        if {name: len(seen) for name, seen in other.items()} != calls:
            sys.exit("the network calls its modules differently at each batch; profile one batch at a time")
    first = next(iter(inputs[0]), None)
    layers = []
    for name, m in leaves(model):
        for call, recorded in enumerate(inputs[0].get(name, [])):
            shape = next((list(a.shape[1:]) for a in recorded if torch.is_tensor(a)), None)
            layer = {"module": name, "call": call, "type": type(m).__name__, "input_shape": shape}
            for k, seen in enumerate(inputs):
                f, b = call_times(m, seen[name][call], name != first, device, precision, clock, warmup, steps)
                suffix = "" if k == 0 else str(k + 1)
                layer["forward%s_s" % suffix] = f
                layer["backward%s_s" % suffix] = b
            layers.append(layer)
    return layers


def step_times(model, x, optimizer, device, precision, clock, warmup, steps, reset_peak=False):
    """The whole step, unhooked: the seconds of each of `steps` steps after
    `warmup` (CUDA's peak memory counted from the first of them if
    `reset_peak`)."""
    for _ in range(warmup):
        step(model, x, optimizer, device, precision)
    clock.sync()
    if reset_peak and device.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
    iterations = []
    for _ in range(steps):
        t0 = clock.mark()
        step(model, x, optimizer, device, precision)
        t1 = clock.mark()
        clock.sync()
        iterations.append(clock.seconds(t0, t1))
    return iterations


def batches(text):
    """`B` or `B1,B2`: one batch, or two different ones."""
    try:
        values = [int(b) for b in text.split(",")]
    except ValueError:
        sys.exit("--batch: give a batch B, or two batches B1,B2")
    if not 1 <= len(values) <= 2:
        sys.exit("--batch: give a batch B, or two batches B1,B2")
    if min(values) < 1:
        sys.exit("--batch must be at least 1")
    if len(values) == 2 and values[0] == values[1]:
        sys.exit("--batch: the two batches must differ")
    return values


def saved_bytes(model, x, device, precision):
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params:
            seen[(st.data_ptr(), st.nbytes())] = st.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), autocast(device, precision):
        model(x)
    return sum(seen.values())


def lighten(path):
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    m = onnx.load(path)
    g = m.graph
    keep, nodes = [], []
    for init in g.initializer:
        if int(np.prod(init.dims)) <= 16:
            keep.append(init)
            continue
        shape = numpy_helper.from_array(np.array(list(init.dims), dtype="int64"), init.name + "__shape")
        keep.append(shape)
        value = helper.make_tensor("value", init.data_type, [1], [0])
        nodes.append(helper.make_node("ConstantOfShape", [shape.name], [init.name], value=value))
    del g.initializer[:]
    g.initializer.extend(keep)
    old = list(g.node)
    del g.node[:]
    g.node.extend(nodes + old)
    onnx.save(m, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--batch", required=True, help="B, or B1,B2 to measure at two batches")
    ap.add_argument("--precision", choices=PRECISIONS, default="fp32")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--input-shape", default="3x224x224")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    bs = batches(a.batch)
    shape = [int(d) for d in a.input_shape.lower().split("x")]
    device = torch.device(a.device)
    if a.precision == "tf32":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    elif device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(0)
    model, name = build(a.model)
    model = model.to(device).train()
    xs = [torch.randn(b, *shape, device=device) for b in bs]
    x = xs[0]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    clock = Clock(device)

    # the whole step, unhooked (peak memory and saved bytes at the first batch)
    iterations = step_times(model, x, optimizer, device, a.precision, clock, a.warmup, a.steps, reset_peak=True)
    peak = torch.cuda.max_memory_allocated() if device.type == "cuda" else None
    saved = saved_bytes(model, x, device, a.precision)
    iterations2 = [step_times(model, x2, optimizer, device, a.precision, clock, a.warmup, a.steps) for x2 in xs[1:]]

    # each layer alone (in-place activations made out-of-place: each is timed on its own input)
    out_of_place(model)
    layers = layer_times(model, xs, device, a.precision, clock, a.warmup, a.steps)

    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        dev = {"type": "cuda", "name": p.name, "sms": p.multi_processor_count, "memory_bytes": p.total_memory}
    else:
        dev = {"type": device.type, "name": platform.processor() or platform.machine(), "sms": None, "memory_bytes": None}
    profile = {
        "format": "paradl-profile/1",
        "model": a.model,
        "name": name,
        "batch": bs[0],
        **({"batch2": bs[1]} if len(bs) > 1 else {}),
        "precision": a.precision,
        "input_shape": shape,
        "parameters": sum(p.numel() for p in model.parameters()),
        "device": dev,
        "torch": torch.__version__,
        "steps": a.steps,
        "layers": layers,
        "layers_s": sum(l["forward_s"] + l["backward_s"] for l in layers),
        "iteration_s": statistics.median(iterations),
        **({"iteration2_s": statistics.median(iterations2[0])} if iterations2 else {}),
        "peak_memory_bytes": peak,
        "saved_bytes": saved,
    }
    with open(os.path.join(a.out, "profile.json"), "w") as f:
        json.dump(profile, f, indent=1)
    onnx_path = os.path.join(a.out, "model.onnx")
    model.eval()
    torch.onnx.export(model, x[:1], onnx_path, dynamo=False, opset_version=17, input_names=["input"],
                      output_names=["output"], do_constant_folding=False,
                      training=torch.onnx.TrainingMode.PRESERVE)
    lighten(onnx_path)
    print("%s on %s at batch %d (%s): step %.4f s, layers %.4f s; wrote %s and %s" % (
        name, dev["name"], bs[0], a.precision, profile["iteration_s"], profile["layers_s"],
        os.path.join(a.out, "profile.json"), onnx_path))
    if len(bs) > 1:
        print("at batch %d: step %.4f s, layers %.4f s" % (
            bs[1], profile["iteration2_s"], sum(l["forward2_s"] + l["backward2_s"] for l in layers)))


if __name__ == "__main__":
    main()
