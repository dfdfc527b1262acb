#!/usr/bin/env python3
"""PyTorch's framework cost per layer and pass, measured.

Times a forward and backward pass through a chain of N tiny layers (one
element per tensor, so the arithmetic is nil and what is left is the
framework: Python, the dispatcher, autograd's bookkeeping), and divides by
the number of kernels the chain launches (one per layer forward, one per
layer backward; conv and linear two in backward). Median of 20 runs after
5 warm-ups, on the CPU: the host-side cost a GPU kernel waits for when it
is shorter than that.

Use: .torchenv/bin/python tests/torch/overhead.py
"""
import statistics
import time

import torch

torch.set_num_threads(1)


def chain(kind, n):
    if kind == "conv":
        return torch.nn.Sequential(*[torch.nn.Conv2d(1, 1, 1) for _ in range(n)]), 3
    if kind == "linear":
        return torch.nn.Sequential(*[torch.nn.Linear(1, 1) for _ in range(n)]), 3
    if kind == "bn":
        return torch.nn.Sequential(*[torch.nn.BatchNorm2d(1) for _ in range(n)]), 2
    return torch.nn.Sequential(*[torch.nn.ReLU() for _ in range(n)]), 2


def per_kernel(kind, n=200):
    model, kernels = chain(kind, n)
    shape = (2, 1) if kind == "linear" else (2, 1, 1, 1)
    times = []
    for i in range(25):
        x = torch.randn(*shape, requires_grad=True)
        t0 = time.perf_counter()
        model(x).sum().backward()
        t1 = time.perf_counter()
        if i >= 5:
            times.append(t1 - t0)
    return statistics.median(times) / (n * kernels)


print("torch", torch.__version__)
for kind in ["conv", "linear", "bn", "relu"]:
    print("%s: %.2f us per kernel" % (kind, per_kernel(kind) * 1e6))
