#!/usr/bin/env python3
"""Profile a PyTorch network on one device, ParaDL's way: each layer's time
measured once, the rest modelled (`paradl --profile DIR/profile.json`).

  python3 scripts/profile_torch.py --model torchvision:resnet50 --batch 32 --out prof
  python3 scripts/profile_torch.py --model my_net.py:build --batch 8 \
      --precision bf16 --device cuda --input-shape 3x224x224 --out prof

--model is `torchvision:NAME` (a torchvision network, built without weights)
or `FILE.py:FUNCTION` (a function of that file returning an nn.Module).
Needs only PyTorch (and torchvision for its networks, onnx to write the
graph).

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
  saves for the backward pass.

It writes DIR/profile.json (format "paradl-profile/1", documented in the
README) and DIR/model.onnx, the same network exported by torch.onnx
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


def layer_times(model, x, device, precision, clock, warmup, steps):
    """Each call of each leaf module timed alone, forward then backward, on
    inputs of the shapes and types it met (ParaDL's method: a layer
    measured once, by itself): the median over `steps` after `warmup`."""
    inputs = layer_inputs(model, x, device, precision)
    first = next(iter(inputs), None)
    layers = []
    for name, m in leaves(model):
        for call, recorded in enumerate(inputs.get(name, [])):
            args = [
                a.clone().requires_grad_(name != first and a.is_floating_point()) if torch.is_tensor(a) else a
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
            shape = next((list(a.shape[1:]) for a in recorded if torch.is_tensor(a)), None)
            layers.append({
                "module": name,
                "call": call,
                "type": type(m).__name__,
                "input_shape": shape,
                "forward_s": statistics.median(f for f, _ in times),
                "backward_s": statistics.median(b for _, b in times),
            })
    return layers


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
    ap.add_argument("--batch", type=int, required=True)
    ap.add_argument("--precision", choices=PRECISIONS, default="fp32")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--input-shape", default="3x224x224")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.batch < 1:
        sys.exit("--batch must be at least 1")
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
    x = torch.randn(a.batch, *shape, device=device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    clock = Clock(device)

    # the whole step, unhooked
    for _ in range(a.warmup):
        step(model, x, optimizer, device, a.precision)
    clock.sync()
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
    iterations = []
    for _ in range(a.steps):
        t0 = clock.mark()
        step(model, x, optimizer, device, a.precision)
        t1 = clock.mark()
        clock.sync()
        iterations.append(clock.seconds(t0, t1))
    peak = torch.cuda.max_memory_allocated() if device.type == "cuda" else None
    saved = saved_bytes(model, x, device, a.precision)

    # each layer alone (in-place activations made out-of-place: each is timed on its own input)
    out_of_place(model)
    layers = layer_times(model, x, device, a.precision, clock, a.warmup, a.steps)

    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        dev = {"type": "cuda", "name": p.name, "sms": p.multi_processor_count, "memory_bytes": p.total_memory}
    else:
        dev = {"type": device.type, "name": platform.processor() or platform.machine(), "sms": None, "memory_bytes": None}
    profile = {
        "format": "paradl-profile/1",
        "model": a.model,
        "name": name,
        "batch": a.batch,
        "precision": a.precision,
        "input_shape": shape,
        "parameters": sum(p.numel() for p in model.parameters()),
        "device": dev,
        "torch": torch.__version__,
        "steps": a.steps,
        "layers": layers,
        "layers_s": sum(l["forward_s"] + l["backward_s"] for l in layers),
        "iteration_s": statistics.median(iterations),
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
        name, dev["name"], a.batch, a.precision, profile["iteration_s"], profile["layers_s"],
        os.path.join(a.out, "profile.json"), onnx_path))


if __name__ == "__main__":
    main()
