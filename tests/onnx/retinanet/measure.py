#!/usr/bin/env python3
"""Ground truth for torchvision RetinaNet and MLPerf's RetinaNet (ResNeXt50-32x4d FPN, 264 classes, 800x800).

For each variant: parameters (all, trainable, frozen-BN buffers), FlopCounterMode forward FLOPs per image in
train mode (with targets, loss included) split by module, forward+backward FLOPs of a training step
(frozen stages compute no gradients), autograd saved bytes per image (fp32, bf16 autocast), and ONNX exports:
  <v>_full.onnx   : the whole model, eval mode (transform + backbone + FPN + head + postprocess: decode, TopK, NMS)
  <v>_heads.onnx  : backbone + FPN + head only (what a training step runs, minus the loss), returns head outputs
Weights are replaced by ConstantOfShape (torch_truth.py's lighten) to keep files small.
"""
import contextlib, json, sys, os, collections, time
import numpy as np
import torch, torchvision
from torch import nn
from torch.utils.flop_counter import FlopCounterMode
from torchvision.models.detection import RetinaNet, retinanet_resnet50_fpn
from torchvision.models.detection.backbone_utils import resnet_fpn_backbone
from torchvision.ops.feature_pyramid_network import LastLevelP6P7
from torchvision.ops import misc as misc_nn_ops
import onnx
from onnx import helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, os.path.join(HERE, "../../../../shared/tools"))
from torch_truth import lighten  # noqa

S = 800
torch.manual_seed(0)
torch.set_num_threads(2)


def tv_r50(num_classes):
    # torchvision as a user calls it without weights: BatchNorm2d (not frozen), all 5 stages trainable
    return retinanet_resnet50_fpn(weights=None, weights_backbone=None, num_classes=num_classes,
                                  min_size=S, max_size=S)


def mlperf_rx50():
    # MLPerf reference (mlcommons/training retired_benchmarks/retinanet/ssd/model/retinanet.py):
    # resnet_fpn_backbone('resnext50_32x4d', returned_layers=[2,3,4], extra_blocks=LastLevelP6P7(256,256),
    # trainable_layers=3, norm_layer=FrozenBatchNorm2d), RetinaNet(num_classes=264), 800x800
    bb = resnet_fpn_backbone(backbone_name="resnext50_32x4d", weights=None, norm_layer=misc_nn_ops.FrozenBatchNorm2d,
                             trainable_layers=3, returned_layers=[2, 3, 4], extra_blocks=LastLevelP6P7(256, 256))
    return RetinaNet(bb, num_classes=264, min_size=S, max_size=S)


VARIANTS = {
    "tv_r50_91": lambda: tv_r50(91),
    "tv_r50_264": lambda: tv_r50(264),
    "mlperf_rx50_264": mlperf_rx50,
}


def targets(n):
    out = []
    for _ in range(n):
        k = 8
        xy = torch.rand(k, 2) * (S - 200)
        wh = torch.rand(k, 2) * 150 + 20
        out.append({"boxes": torch.cat([xy, xy + wh], 1), "labels": torch.randint(1, 90, (k,))})
    return out


def group(name):
    # module path -> component
    n = name.split(".")
    if len(n) < 2:
        return None
    if n[1] == "backbone":
        return "backbone.body" if len(n) > 2 and n[2] == "body" else ("backbone.fpn" if len(n) > 2 else None)
    if n[1] == "head":
        return "head." + n[2] if len(n) > 2 else None
    return None


def flops_by_component(fc):
    counts = fc.get_flop_counts()
    comp = collections.OrderedDict()
    for mod, d in counts.items():
        g = group(mod)
        if g and mod.count(".") == (2 if g.startswith(("backbone", "head")) else 1):
            comp[g] = comp.get(g, 0) + sum(d.values())
    total = fc.get_total_flops()
    comp["rest (transform, anchors, loss, postprocess)"] = total - sum(comp.values())
    comp["total"] = total
    return comp


def saved_bytes(model, imgs, tg, autocast):
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}

    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params:
            seen[(st.data_ptr(), st.nbytes())] = st.nbytes()
        return t
    ctx = torch.autocast("cpu", dtype=torch.bfloat16) if autocast else contextlib.nullcontext()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), ctx:
        model(imgs, tg)
    return sum(seen.values())


class Heads(nn.Module):
    """backbone + FPN + head, no transform, no anchors/postprocess: returns the two head tensors."""
    def __init__(self, m):
        super().__init__()
        self.backbone, self.head = m.backbone, m.head

    def forward(self, x):
        f = list(self.backbone(x).values())
        o = self.head(f)
        return o["cls_logits"], o["bbox_regression"]


def export(model, args, path, outs):
    full = path + ".full.onnx"
    torch.onnx.export(model, args, full, dynamo=False, opset_version=17, input_names=["input"],
                      output_names=outs, do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE)
    lighten(full, path)
    import os
    os.remove(full)
    m = onnx.load(path)
    ops = collections.Counter(n.op_type for n in m.graph.node)
    return dict(ops)


def main(names):
    res = {}
    for name in names:
        r = {}
        m = VARIANTS[name]()
        params = list(m.parameters())
        r["params"] = sum(p.numel() for p in params)
        r["trainable_params"] = sum(p.numel() for p in params if p.requires_grad)
        r["frozen_params"] = r["params"] - r["trainable_params"]
        r["buffers"] = sum(b.numel() for b in m.buffers())
        comp = collections.OrderedDict()
        for k, mod in [("backbone.body", m.backbone.body), ("backbone.fpn", m.backbone.fpn),
                       ("head.classification_head", m.head.classification_head),
                       ("head.regression_head", m.head.regression_head)]:
            comp[k] = dict(params=sum(p.numel() for p in mod.parameters()),
                           trainable=sum(p.numel() for p in mod.parameters() if p.requires_grad))
        r["params_by_component"] = comp
        # per-level head params (shared across the 5 FPN levels)
        r["head_params_shared_over_levels"] = comp["head.classification_head"]["params"] + comp["head.regression_head"]["params"]
        def log(msg):
            print("[%s %.0fs] %s" % (name, time.time() - T0, msg), file=sys.stderr, flush=True)
        T0 = time.time()
        log("params done")
        # ONNX exports first (cheap relative to the rest)
        m.eval()
        try:
            r["onnx_full_ops"] = export(m, ([torch.rand(3, S, S)],), f"{HERE}/{name}_full.onnx",
                                        ["boxes", "scores", "labels"])
        except Exception as e:
            r["onnx_full_error"] = repr(e)[:2000]
        log("full export done")
        h = Heads(m).eval()
        r["onnx_heads_ops"] = export(h, (torch.rand(1, 3, S, S),), f"{HERE}/{name}_heads.onnx",
                                     ["cls_logits", "bbox_regression"])
        log("heads export done")
        # train-mode forward FLOPs per image (batch 1, loss included)
        m.train()
        x = [torch.rand(3, S, S)]
        with FlopCounterMode(display=False) as fc:
            losses = m(x, targets(1))
        r["train_forward_flops"] = flops_by_component(fc)
        log("train fwd flops done")
        # forward + backward of a training step
        with FlopCounterMode(display=False) as fc2:
            losses = m(x, targets(1))
            sum(losses.values()).backward()
        r["train_step_flops_fwd_plus_bwd"] = flops_by_component(fc2)
        log("fwd+bwd flops done")
        m.zero_grad(set_to_none=True)
        # eval-mode (postprocess) forward FLOPs
        m.eval()
        with FlopCounterMode(display=False) as fc3, torch.no_grad():
            m(x)
        r["eval_forward_flops"] = flops_by_component(fc3)
        with FlopCounterMode(display=False) as fc4, torch.no_grad():
            h(torch.rand(1, 3, S, S))
        r["heads_wrapper_forward_flops"] = fc4.get_total_flops()
        log("eval flops done")
        json.dump(res | {name: r}, open(HERE + "/torch_truth.json", "w"), indent=1)
        if os.environ.get("SKIP_SAVED"):
            res[name] = r
            continue
        # saved activations per image (slope between batch 1 and 2)
        m.train()
        t0 = time.time()
        x1, x2 = [torch.rand(3, S, S)], [torch.rand(3, S, S) for _ in range(2)]
        for ac, key in [(False, "saved_fp32_bytes_per_image"), (True, "saved_bf16_bytes_per_image")]:
            r[key] = saved_bytes(m, x2, targets(2), ac) - saved_bytes(m, x1, targets(1), ac)
        log("saved bytes done")
        res[name] = r
        print(json.dumps({name: r}, indent=1), flush=True)
    json.dump(res, open(HERE + "/torch_truth.json", "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1:] or list(VARIANTS))
