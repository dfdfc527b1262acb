#!/usr/bin/env python3
"""Writes depthwise-v100-passes.csv from Orion's per-kernel profiles of
MobileNetV2 (eth-easl/orion@cf04f97f2355e7d1652b367ce4bde6fe629ca3a2,
benchmarking/model_kernels/mobilenetv2_{32,64,96}_fb1: Nsight Compute's
kernel list of one training step, in launch order). See depthwise.md.

Usage: depthwise_extract.py ORION_CHECKOUT > depthwise-v100-passes.csv
"""
import csv
import sys

# torchvision mobilenet_v2 at 224x224: each depthwise 3x3 layer's channels,
# input size and stride, in forward order
LAYERS = [(32, 112, 1), (96, 112, 2), (144, 56, 1), (144, 56, 2), (192, 28, 1), (192, 28, 1),
          (192, 28, 2), (384, 14, 1), (384, 14, 1), (384, 14, 1), (384, 14, 1), (576, 14, 1),
          (576, 14, 1), (576, 14, 2), (960, 7, 1), (960, 7, 1), (960, 7, 1)]


def kernels(rows, name):
    return [r for r in rows if name in r["Name"]]


def main():
    root = sys.argv[1]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["batch", "layer", "channels", "input_size", "kernel", "stride",
                  "forward_ms", "input_gradient_ms", "weight_gradient_ms"])
    for batch in (32, 64, 96):
        path = f"{root}/benchmarking/model_kernels/mobilenetv2_{batch}_fb1"
        rows = list(csv.DictReader(open(path)))
        forward = kernels(rows, "conv_depthwise2d_forward_kernel")
        # the backward pass runs the layers in reverse order
        data = kernels(rows, "conv_depthwise2d_backward_kernel")[::-1]
        weight = kernels(rows, "conv_depthwise2d_grad_weight_kernel")[::-1]
        assert len(forward) == len(data) == len(weight) == len(LAYERS)
        for i, (c, size, stride) in enumerate(LAYERS):
            out_size = size // stride
            # each kernel's grid (the SM_usage column) names its layer
            assert int(forward[i]["SM_usage"]) == batch * c * out_size * out_size // 2048
            assert int(data[i]["SM_usage"]) == batch * c * size * size // 1024
            assert int(weight[i]["SM_usage"]) == c * 9 // 8
            ms = [float(k[i]["Duration"]) / 1e6 for k in (forward, data, weight)]
            out.writerow([batch, i + 1, c, size, 3, stride, *(f"{t:.6f}" for t in ms)])


if __name__ == "__main__":
    main()
