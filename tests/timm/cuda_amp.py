#!/usr/bin/env python3
"""Bytes autograd saves per sample under CUDA's BF16 autocast, emulated on the CPU.

`truth.py` measures BF16 under the CPU's autocast, whose lists differ from
CUDA's: on the CPU a layer norm or group norm runs in its input's width; on
a GPU autocast casts its input to FP32 and it writes FP32. A GPU cluster
runs CUDA's, which the model follows. This script runs each network in
FP32 on the CPU under a TorchFunctionMode that applies CUDA's three lists
(PyTorch's AMP documentation, "CUDA Ops that can autocast to float16",
"... to float32", "... that promote to the widest input type"; 16 bits as
bfloat16 here), above autograd, so that autograd saves what it would on the
GPU, cast copies included. Ops on no list run as they are, in their
inputs' width after type promotion, as on the GPU.

It prints `model,saved_cuda_bf16_bytes_per_sample`: the bytes saved (the
`saved_tensors_hooks` pack hook, parameters excluded, each storage once,
as `scripts/profile_torch.py`'s `saved_bytes`) at the larger batch of the
row's `slope_batches` minus those at the smaller, for each network of
TIMM_CSV (a `timm.csv`; or `../torch/torchvision.csv`, whose networks
are built as `../torch/truth.py` builds them, between batches 1 and 2,
DeepLabv3's 2 and 3) or the NAMES given; a network that fails prints
`ERROR` and the exception. Run each network in a process of its own (as
below) so that one network's memory is returned before the next.

Setup: as truth.py.
Use:   for m in $(cat tests/timm/models.txt); do
         /work/.torchenv/bin/python tests/timm/cuda_amp.py tests/timm/timm.csv $m | tail -n +2
       done
"""
import csv, os, sys, torch, timm
from torch.overrides import TorchFunctionMode

# the profiler's own count of the bytes autograd saves, as truth.py uses it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from profile_torch import saved_bytes  # noqa: E402

CPU = torch.device("cpu")

LOWER = {"__matmul__", "addbmm", "addmm", "addmv", "addr", "baddbmm", "bmm", "chain_matmul", "multi_dot",
         "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
         "linear", "matmul", "mm", "mv", "prelu", "_convolution", "convolution",
         "scaled_dot_product_attention"}
FP32 = {"__pow__", "__rdiv__", "__rpow__", "__rtruediv__", "acos", "asin", "cosh", "cdist", "cosine_similarity",
        "cumprod", "cumsum", "dist", "erfinv", "exp", "expm1", "group_norm", "layer_norm", "log", "log_softmax",
        "log10", "log1p", "log2", "norm", "normalize", "pdist", "pow", "prod", "reciprocal", "rsqrt", "sinh",
        "softmax", "softmin", "softplus", "sum", "renorm", "tan", "binary_cross_entropy_with_logits",
        "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "kl_div"}
PROMOTE = {"addcdiv", "addcmul", "atan2", "bilinear", "cross", "dot", "grid_sample", "index_put", "scatter_add",
           "tensordot"}


def cast(a, dtype):
    if isinstance(a, torch.Tensor) and a.is_floating_point() and a.dtype != dtype:
        return a.to(dtype)
    if isinstance(a, (list, tuple)):
        return type(a)(cast(x, dtype) for x in a)
    return a


def widest(args):
    found = [a.dtype for a in args if isinstance(a, torch.Tensor) and a.is_floating_point()]
    return torch.float32 if torch.float32 in found else (found[0] if found else None)


class CudaAutocast(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name == "multi_head_attention_forward":
            return self.inside(func, args, kwargs)
        if name in LOWER:
            args, kwargs = cast(args, torch.bfloat16), {k: cast(v, torch.bfloat16) for k, v in kwargs.items()}
        elif name in FP32:
            args, kwargs = cast(args, torch.float32), {k: cast(v, torch.float32) for k, v in kwargs.items()}
        elif name in PROMOTE:
            d = widest(list(args) + list(kwargs.values()))
            if d is not None:
                args, kwargs = cast(args, d), {k: cast(v, d) for k, v in kwargs.items()}
        return func(*args, **kwargs)

    def inside(self, func, args, kwargs):
        """A composite written in Python (`nn.MultiheadAttention`'s forward):
        run with the mode on, so that the lists reach the ops inside it, as
        CUDA's autocast (in the dispatcher) reaches them. A mode is off while
        its `__torch_function__` runs; the composite's own check for torch
        functions is silenced so that it does not come back here."""
        import torch.nn.functional as F
        check = F.has_torch_function
        F.has_torch_function = lambda *_: False
        try:
            with self:
                return func(*args, **kwargs)
        finally:
            F.has_torch_function = check


def saved(model, x):
    """Bytes autograd saves in one forward pass under CUDA's lists
    (`scripts/profile_torch.py`'s `saved_bytes`, in FP32 under the mode)."""
    with CudaAutocast():
        return saved_bytes(model, x, CPU, "fp32")


def build(name, row):
    """A timm network (a row of timm.csv), or a torchvision one (a row of
    ../torch/torchvision.csv, which has no slope_batches) as ../torch/truth.py
    builds it."""
    if "slope_batches" in row:
        return timm.create_model(name, pretrained=False), row["slope_batches"]
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "torch"))
    from truth import build as torchvision_build  # noqa: E402

    return torchvision_build(name), "2-3" if name.startswith("deeplabv3") else "1-2"


def main():
    torch.set_num_threads(2)
    rows = {r["model"]: r for r in csv.DictReader(open(sys.argv[1]))}
    names = sys.argv[2:] or list(rows)
    print("model,saved_cuda_bf16_bytes_per_sample")
    for name in names:
        r = rows[name]
        try:
            torch.manual_seed(0)
            m, slope = build(name, r)
            m = m.train()
            shape = [int(v) for v in r["input"].split("x")]
            a, b = [int(v) for v in slope.split("-")]
            s = saved(m, torch.randn(b, *shape)) - saved(m, torch.randn(a, *shape))
            print(f"{name},{s}", flush=True)
        except Exception as e:
            print(f"{name},ERROR {type(e).__name__}: {str(e)[:100]}".replace("\n", " "), flush=True)


main()
