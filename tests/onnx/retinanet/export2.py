#!/usr/bin/env python3
"""More ONNX exports of the MLPerf RetinaNet (and torchvision's) for `paradl inspect`:
  <v>_perlevel.onnx    backbone+FPN+head, raw per-level conv outputs (no reshape/concat)  [TorchScript exporter]
  <v>_notransform.onnx backbone+FPN+head+anchors+postprocess (decode, TopK, NMS), no GeneralizedRCNNTransform
  <v>_full_dynamo.onnx whole model, torch.onnx.export default (dynamo=True) exporter
  <v>_heads_dynamo.onnx heads wrapper (measure.py's Heads) with the dynamo exporter
"""
import sys, os, collections, traceback
import torch, onnx
from torch import nn
from torchvision.models.detection.image_list import ImageList
HERE = os.path.dirname(os.path.abspath(__file__)); sys.path.insert(0, HERE); sys.path.insert(0, os.path.join(HERE, "../../../../shared/tools"))
from measure import VARIANTS, Heads, S
from torch_truth import lighten

class PerLevel(nn.Module):
    def __init__(self, m):
        super().__init__(); self.backbone, self.head = m.backbone, m.head
    def forward(self, x):
        f = list(self.backbone(x).values())
        ch, rh = self.head.classification_head, self.head.regression_head
        outs = []
        for t in f:
            outs.append(ch.cls_logits(ch.conv(t)))
        for t in f:
            outs.append(rh.bbox_reg(rh.conv(t)))
        return tuple(outs)

class NoTransform(nn.Module):
    """RetinaNet.forward in eval mode without GeneralizedRCNNTransform (input already normalized, 800x800)."""
    def __init__(self, m):
        super().__init__(); self.m = m
    def forward(self, x):
        m = self.m
        images = ImageList(x, [(S, S)] * x.shape[0])
        features = list(m.backbone(x).values())
        head_outputs = m.head(features)
        anchors = m.anchor_generator(images, features)
        num_anchors_per_level = [f.size(2) * f.size(3) for f in features]
        HW = sum(num_anchors_per_level); HWA = head_outputs["cls_logits"].size(1); A = HWA // HW
        num_anchors_per_level = [hw * A for hw in num_anchors_per_level]
        split_head_outputs = {k: list(head_outputs[k].split(num_anchors_per_level, dim=1)) for k in head_outputs}
        split_anchors = [list(a.split(num_anchors_per_level)) for a in anchors]
        det = m.postprocess_detections(split_head_outputs, split_anchors, images.image_sizes)
        return det[0]["boxes"], det[0]["scores"], det[0]["labels"]

def ops(path):
    m = onnx.load(path)
    return dict(collections.Counter(n.op_type for n in m.graph.node))

def ts_export(mod, args, path, outs):
    full = path + ".tmp.onnx"
    torch.onnx.export(mod, args, full, dynamo=False, opset_version=17, input_names=["input"], output_names=outs,
                      do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE)
    lighten(full, path); os.remove(full)

def dyn_export(mod, args, path):
    full = path + ".tmp.onnx"
    torch.onnx.export(mod, args, full, opset_version=17)  # default exporter (dynamo=True in this torch)
    # the dynamo exporter may write external data; load with it and lighten
    lighten(full, path)
    for f in os.listdir(os.path.dirname(path)):
        if f.startswith(os.path.basename(full)):
            os.remove(os.path.join(os.path.dirname(path), f))

if __name__ != "__main__":
    pass
else:
    name = sys.argv[1]
    which = sys.argv[2:] or ["perlevel", "notransform", "heads_dynamo", "full_dynamo"]
    torch.manual_seed(0)
    m = VARIANTS[name]().eval()
    x = torch.rand(1, 3, S, S)
    D = HERE + "/"
    for w in which:
        p = f"{D}{name}_{w}.onnx"
        try:
            if w == "perlevel":
                ts_export(PerLevel(m).eval(), (x,), p, [f"cls{i}" for i in range(5)] + [f"reg{i}" for i in range(5)])
            elif w == "notransform":
                ts_export(NoTransform(m).eval(), (x,), p, ["boxes", "scores", "labels"])
            elif w == "heads_dynamo":
                dyn_export(Heads(m).eval(), (x,), p)
            elif w == "full_dynamo":
                dyn_export(m, ([x[0]],), p)
            print(w, "OK", ops(p), flush=True)
        except Exception as e:
            print(w, "FAILED", repr(e)[:1500], flush=True)
