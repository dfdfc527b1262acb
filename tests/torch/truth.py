#!/usr/bin/env python3
"""PyTorch's own numbers for torchvision networks, as test fixtures.

Extends ../shared/tools/torch_truth.py (the project's tool) with opsets,
segmentation networks and a per-network timeout-friendly loop. For each
network NAME[:SIZE] it writes one CSV row to stdout:

  model, input (CxHxW), params (sum of p.numel() over model.parameters()),
  forward FLOPs per sample (torch.utils.flop_counter.FlopCounterMode in
  eval mode, batch 1: conv, mm, addmm, bmm, ... at 2 per multiply-add),
  bytes per sample autograd saves for the backward pass in fp32 and in bf16
  autocast (torch.autograd.graph.saved_tensors_hooks in train mode,
  parameters excluded, each storage once; the slope between batch 1 and 2,
  or 2 and 3 for a network that cannot train on one sample),
  and exported (1 when torch.onnx.export wrote the graphs, else the error).

With --onnx DIR it also writes DIR/tv_NAME.opsetK.onnx for each --opset K
(default 17): torch.onnx.export (TorchScript exporter, eval mode, no
constant folding, so batch norms stay), with every weight larger than 16
items replaced by a ConstantOfShape node so that the file stays small.

Setup: python3 -m venv .torchenv && .torchenv/bin/pip install torch torchvision onnx
Use:   .torchenv/bin/python tests/torch/truth.py --onnx tests/torch/onnx --opset 13 --opset 17 resnet50 ...
       .torchenv/bin/python tests/torch/truth.py --all-classification --onnx DIR
The CSV and the ONNX files are committed; tests read them and never run PyTorch.
"""
import os
import shutil
import sys

import torch
import torchvision
from torch.utils.flop_counter import FlopCounterMode

# the profiler's own ways of counting the bytes autograd saves and of
# lightening an exported graph (scripts/profile_torch.py), so that the
# fixtures and a user's profile count alike
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from profile_torch import lighten, saved_bytes  # noqa: E402

CPU = torch.device("cpu")

NO_AUX = {"inception_v3", "googlenet"}  # their auxiliary heads are not part of the exported graph


def build(name):
    if name in torchvision.models.list_models(module=torchvision.models.segmentation):
        model = getattr(torchvision.models.segmentation, name)(weights=None, weights_backbone=None, aux_loss=False)
        return Segmentation(model)
    kw = {"aux_logits": False, "init_weights": False} if name in NO_AUX else {}
    return getattr(torchvision.models, name)(weights=None, **kw)


class Segmentation(torch.nn.Module):
    """A segmentation network returns a dict; its 'out' is the prediction."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def main(argv):
    onnx_dir, opsets, names = None, [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--onnx":
            onnx_dir = argv[i + 1]
            i += 2
        elif argv[i] == "--opset":
            opsets.append(int(argv[i + 1]))
            i += 2
        elif argv[i] == "--all-classification":
            names += torchvision.models.list_models(module=torchvision.models)
            i += 1
        elif argv[i] == "--all-segmentation":
            names += torchvision.models.list_models(module=torchvision.models.segmentation)
            i += 1
        else:
            names.append(argv[i])
            i += 1
    opsets = opsets or [17]
    torch.set_num_threads(2)
    print("model,input,params,forward_flops_per_sample,saved_fp32_bytes_per_sample,saved_bf16_bytes_per_sample,exported")
    for spec in names:
        name, size = (spec.split(":") + ["224"])[:2]
        size = int(size)
        torch.manual_seed(0)
        m = build(name)
        m.train()
        x1, x2 = torch.randn(1, 3, size, size), torch.randn(2, 3, size, size)
        try:
            s32 = saved_bytes(m, x2, CPU, "fp32") - saved_bytes(m, x1, CPU, "fp32")
            s16 = saved_bytes(m, x2, CPU, "bf16") - saved_bytes(m, x1, CPU, "bf16")
        except ValueError:
            # a batch norm after a global pool cannot train on one sample (DeepLabv3's ASPP
            # pooling): the slope between 2 and 3 samples
            x3 = torch.randn(3, 3, size, size)
            s32 = saved_bytes(m, x3, CPU, "fp32") - saved_bytes(m, x2, CPU, "fp32")
            s16 = saved_bytes(m, x3, CPU, "bf16") - saved_bytes(m, x2, CPU, "bf16")
        m.eval()
        # with autograd on, as in training: under no_grad nn.MultiheadAttention (ViT's) takes
        # its inference-only fused kernel, whose FLOPs the counter does not see
        with FlopCounterMode(display=False) as fc:
            m(x1)
        n = sum(p.numel() for p in m.parameters())
        exported = "1"
        if onnx_dir:
            for opset in opsets:
                full = "%s/%s.full.onnx" % (onnx_dir, name)
                try:
                    torch.onnx.export(m, x1, full, dynamo=False, opset_version=opset, input_names=["input"],
                                      output_names=["logits"], do_constant_folding=False,
                                      training=torch.onnx.TrainingMode.PRESERVE)
                    light = "%s/tv_%s.opset%d.onnx" % (onnx_dir, name, opset)
                    shutil.copyfile(full, light)
                    lighten(light)
                except Exception as e:  # noqa: BLE001 - the row says why
                    exported = ("opset %d: %s" % (opset, e)).replace(",", ";").replace("\n", " ")[:200]
                finally:
                    if os.path.exists(full):
                        os.remove(full)
        print("%s,3x%dx%d,%d,%d,%d,%d,%s" % (name, size, size, n, fc.get_total_flops(), s32, s16, exported), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
