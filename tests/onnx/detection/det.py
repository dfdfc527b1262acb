#!/usr/bin/env python3
"""Ground truth + ONNX exports for torchvision detection/segmentation nets and a U-Net.

Usage: /work/venv-retina/bin/python det.py NAME [--no-saved] [--only a,b,c,d]
Writes truth/NAME.json and onnx/NAME_{a,b,c,d}.onnx (lightened, opset 17, eval, no constant folding, dynamo=False).
  a: whole model as users export it (detection: model([img]); segmentation: model(x)['out'])
  b: heads wrapper: the model's own head outputs before post-processing
  c: per-level wrapper: raw per-level conv outputs, no reshape/concat
  d: (two-stage only, extra) backbone+FPN + MultiScaleRoIAlign on fixed proposals + ROI heads (training-relevant)
"""
import contextlib, json, os, sys, time, collections
import torch, torchvision, onnx
from torch import nn
import torch.nn.functional as F
from torch.utils.flop_counter import FlopCounterMode
import torchvision.models.detection as D
import torchvision.models.segmentation as S
sys.path.insert(0, "/work/shared/tools")
from torch_truth import lighten  # noqa

HERE = os.path.dirname(os.path.abspath(__file__))
torch.set_num_threads(2)
torch.manual_seed(0)
DET_S = 512      # detection input (min_size=max_size=DET_S so the transform keeps the size)
SEG_S = 512


# ---------------- U-Net (Ronneberger 2015 layout, BN as in milesial/Pytorch-UNet, bilinear=False) -------------
class DoubleConv(nn.Sequential):
    def __init__(self, i, o):
        super().__init__(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Down(nn.Sequential):
    def __init__(self, i, o):
        super().__init__(nn.MaxPool2d(2), DoubleConv(i, o))


class Up(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.up = nn.ConvTranspose2d(i, i // 2, 2, stride=2)
        self.conv = DoubleConv(i, o)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        dy, dx = x2.size(2) - x1.size(2), x2.size(3) - x1.size(3)
        x1 = F.pad(x1, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        return self.conv(torch.cat([x2, x1], dim=1))


class UNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=2, c=64):
        super().__init__()
        self.inc = DoubleConv(n_channels, c)
        self.down1, self.down2, self.down3, self.down4 = Down(c, 2 * c), Down(2 * c, 4 * c), Down(4 * c, 8 * c), Down(8 * c, 16 * c)
        self.up1, self.up2, self.up3, self.up4 = Up(16 * c, 8 * c), Up(8 * c, 4 * c), Up(4 * c, 2 * c), Up(2 * c, c)
        self.outc = nn.Conv2d(c, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x); x2 = self.down1(x1); x3 = self.down2(x2); x4 = self.down3(x3); x5 = self.down4(x4)
        x = self.up1(x5, x4); x = self.up2(x, x3); x = self.up3(x, x2); x = self.up4(x, x1)
        return self.outc(x)


DK = dict(weights=None, weights_backbone=None)
NETS = {
    "fcos_resnet50_fpn": ("det", lambda: D.fcos_resnet50_fpn(**DK, min_size=DET_S, max_size=DET_S), DET_S),
    "retinanet_resnet50_fpn_v2": ("det", lambda: D.retinanet_resnet50_fpn_v2(**DK, min_size=DET_S, max_size=DET_S), DET_S),
    "ssd300_vgg16": ("det", lambda: D.ssd300_vgg16(**DK), 300),
    "ssdlite320_mobilenet_v3_large": ("det", lambda: D.ssdlite320_mobilenet_v3_large(**DK), 320),
    "fasterrcnn_resnet50_fpn": ("det", lambda: D.fasterrcnn_resnet50_fpn(**DK, min_size=DET_S, max_size=DET_S), DET_S),
    "fasterrcnn_resnet50_fpn_v2": ("det", lambda: D.fasterrcnn_resnet50_fpn_v2(**DK, min_size=DET_S, max_size=DET_S), DET_S),
    "maskrcnn_resnet50_fpn": ("det", lambda: D.maskrcnn_resnet50_fpn(**DK, min_size=DET_S, max_size=DET_S), DET_S),
    "keypointrcnn_resnet50_fpn": ("det", lambda: D.keypointrcnn_resnet50_fpn(**DK, min_size=DET_S, max_size=DET_S), DET_S),
    "fcn_resnet50": ("seg", lambda: S.fcn_resnet50(**DK, aux_loss=False), SEG_S),
    "deeplabv3_resnet50": ("seg", lambda: S.deeplabv3_resnet50(**DK, aux_loss=False), SEG_S),
    "deeplabv3_mobilenet_v3_large": ("seg", lambda: S.deeplabv3_mobilenet_v3_large(**DK, aux_loss=False), SEG_S),
    "lraspp_mobilenet_v3_large": ("seg", lambda: S.lraspp_mobilenet_v3_large(**DK), SEG_S),
    "unet": ("seg", lambda: UNet(), SEG_S),
}


def kind_of(m):
    n = type(m).__name__
    if n in ("FCOS", "RetinaNet"): return "dense"
    if n == "SSD": return "ssd"
    if n in ("FasterRCNN", "MaskRCNN", "KeypointRCNN"): return "twostage"
    return "seg"


# ---------------- wrappers ----------------
class SegOut(nn.Module):
    def __init__(self, m): super().__init__(); self.m = m
    def forward(self, x):
        o = self.m(x)
        return o["out"] if isinstance(o, dict) else o


class HeadsDense(nn.Module):  # FCOS / RetinaNet / SSD: backbone (+FPN) + head(features) as the head returns it
    def __init__(self, m): super().__init__(); self.backbone, self.head = m.backbone, m.head
    def forward(self, x):
        f = list(self.backbone(x).values())
        return tuple(self.head(f).values())


class HeadsRPN(nn.Module):  # Faster/Mask/Keypoint R-CNN: FPN features + RPN head (objectness, deltas) per level
    def __init__(self, m): super().__init__(); self.backbone, self.rpnhead = m.backbone, m.rpn.head
    def forward(self, x):
        f = list(self.backbone(x).values())
        obj, dlt = self.rpnhead(f)
        return tuple(f) + tuple(obj) + tuple(dlt)


class PerLevel(nn.Module):
    def __init__(self, m):
        super().__init__(); self.m = m; self.k = type(m).__name__
    def forward(self, x):
        m = self.m
        f = list(m.backbone(x).values())
        outs = []
        if self.k == "FCOS":
            ch, rh = m.head.classification_head, m.head.regression_head
            for t in f: outs.append(ch.cls_logits(ch.conv(t)))
            for t in f:
                r = rh.conv(t); outs.append(rh.bbox_reg(r)); outs.append(rh.bbox_ctrness(r))
        elif self.k == "RetinaNet":
            ch, rh = m.head.classification_head, m.head.regression_head
            for t in f: outs.append(ch.cls_logits(ch.conv(t)))
            for t in f: outs.append(rh.bbox_reg(rh.conv(t)))
        elif self.k == "SSD":
            for i, t in enumerate(f): outs.append(m.head.classification_head.module_list[i](t))
            for i, t in enumerate(f): outs.append(m.head.regression_head.module_list[i](t))
        else:  # two-stage: RPN head convs per level
            h = m.rpn.head
            for t in f:
                c = h.conv(t)
                outs.append(h.cls_logits(c)); outs.append(h.bbox_pred(c))
        return tuple(outs)


class RoIWrap(nn.Module):
    """backbone+FPN, then MultiScaleRoIAlign on fixed proposals + box head/predictor (+ mask / keypoint heads):
    the ROI half of a training step, without sampling/matching/loss."""
    def __init__(self, m, s, n=128):
        super().__init__(); self.m = m; self.s = s
        g = torch.Generator().manual_seed(0)
        xy = torch.rand(n, 2, generator=g) * (s - 128); wh = torch.rand(n, 2, generator=g) * 120 + 8
        self.register_buffer("props", torch.cat([xy, xy + wh], 1))
    def forward(self, x):
        m = self.m; rh = m.roi_heads; sz = [(self.s, self.s)]
        f = m.backbone(x)
        p = [self.props]
        bf = rh.box_head(rh.box_roi_pool(f, p, sz))
        cls, reg = rh.box_predictor(bf)
        outs = [cls, reg]
        if rh.has_mask():
            outs.append(rh.mask_predictor(rh.mask_head(rh.mask_roi_pool(f, p, sz))))
        if rh.has_keypoint():
            outs.append(rh.keypoint_predictor(rh.keypoint_head(rh.keypoint_roi_pool(f, p, sz))))
        return tuple(outs)


def export(mod, args, path):
    tmp = path + ".tmp.onnx"
    torch.onnx.export(mod, args, tmp, dynamo=False, opset_version=17, input_names=["input"],
                      do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE)
    lighten(tmp, path); os.remove(tmp)
    return dict(collections.Counter(n.op_type for n in onnx.load(path).graph.node))


# ---------------- truth ----------------
def comp_flops(fc, root):
    """FlopCounterMode counts per module path; report depth-1 children and depth-2 grandchildren."""
    out = collections.OrderedDict()
    for mod, d in fc.get_flop_counts().items():
        parts = mod.split(".")
        if parts[0] != root or len(parts) not in (2, 3): continue
        out[".".join(parts[1:])] = int(sum(d.values()))
    tot = int(fc.get_total_flops())
    out["rest (not in any depth-1 child)"] = tot - sum(v for k, v in out.items() if "." not in k)
    out["total"] = tot
    return out


def targets(n, s, kind):
    out = []
    for _ in range(n):
        k = 6
        xy = torch.rand(k, 2) * (s * 0.6); wh = torch.rand(k, 2) * (s * 0.3) + 16
        b = torch.cat([xy, xy + wh], 1)
        t = {"boxes": b, "labels": torch.randint(1, 2 if kind == "KeypointRCNN" else 90, (k,))}
        if kind == "MaskRCNN":
            msk = torch.zeros(k, s, s, dtype=torch.uint8)
            for i, bb in enumerate(b.long()): msk[i, bb[1]:bb[3], bb[0]:bb[2]] = 1
            t["masks"] = msk
        if kind == "KeypointRCNN":
            kp = torch.rand(k, 17, 3); kp[..., 0] = xy[:, None, 0] + kp[..., 0] * wh[:, None, 0]
            kp[..., 1] = xy[:, None, 1] + kp[..., 1] * wh[:, None, 1]; kp[..., 2] = 1
            t["keypoints"] = kp
        out.append(t)
    return out


def saved_bytes(m, call):
    params = {p.untyped_storage().data_ptr() for p in m.parameters()}
    seen = {}
    def pack(t):
        st = t.untyped_storage()
        if st.data_ptr() not in params: seen[(st.data_ptr(), st.nbytes())] = st.nbytes()
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        call()
    return sum(seen.values())


def main():
    name = sys.argv[1]
    no_saved = "--no-saved" in sys.argv
    only = None
    if "--only" in sys.argv: only = sys.argv[sys.argv.index("--only") + 1].split(",")
    fam, ctor, s = NETS[name]
    T0 = time.time()
    def log(msg): print("[%s %.0fs] %s" % (name, time.time() - T0, msg), file=sys.stderr, flush=True)
    m = ctor(); k = kind_of(m); root = type(m).__name__
    os.makedirs(f"{HERE}/truth", exist_ok=True); os.makedirs(f"{HERE}/onnx", exist_ok=True)
    tp = f"{HERE}/truth/{name}.json"
    r = json.load(open(tp)) if os.path.exists(tp) else {}
    r.update(family=fam, input=f"3x{s}x{s}", batch=1)
    ps = list(m.parameters())
    r["params"] = sum(p.numel() for p in ps)
    r["trainable_params"] = sum(p.numel() for p in ps if p.requires_grad)
    r["buffers_numel"] = sum(b.numel() for b in m.buffers())
    r["params_by_child"] = {n: sum(p.numel() for p in c.parameters()) for n, c in m.named_children()}
    if hasattr(m, "backbone") and hasattr(m.backbone, "body"):
        r["params_by_child"]["backbone.body"] = sum(p.numel() for p in m.backbone.body.parameters())
        r["params_by_child"]["backbone.fpn"] = sum(p.numel() for p in m.backbone.fpn.parameters())
    if k == "twostage":
        for n, c in m.roi_heads.named_children():
            r["params_by_child"]["roi_heads." + n] = sum(p.numel() for p in c.parameters())
    m.eval()
    x = torch.rand(1, 3, s, s)
    # eval forward FLOPs of the whole model (what export (a) computes)
    with FlopCounterMode(display=False) as fc, torch.no_grad():
        out = m([x[0]]) if fam == "det" else m(x)
    r["eval_forward_flops"] = comp_flops(fc, root)
    if k == "twostage":
        r["eval_num_proposals_per_image"] = None
    log("eval flops")
    # wrappers
    wr = {}
    if fam == "det":
        wr["a"] = (m, ([x[0]],))
        wr["b"] = ((HeadsRPN(m) if k == "twostage" else HeadsDense(m)).eval(), (x,))
        wr["c"] = (PerLevel(m).eval(), (x,))
        if k == "twostage": wr["d"] = (RoIWrap(m, s).eval(), (x,))
    else:
        wr["a"] = (SegOut(m).eval(), (x,))
    r.setdefault("wrapper_forward_flops", {}); r.setdefault("onnx", {})
    for w, (mod, args) in wr.items():
        if only and w not in only: continue
        if w != "a":
            with FlopCounterMode(display=False) as fcw, torch.no_grad():
                mod(*args)
            r["wrapper_forward_flops"][w] = int(fcw.get_total_flops())
        else:
            r["wrapper_forward_flops"][w] = r["eval_forward_flops"]["total"]
        p = f"{HERE}/onnx/{name}_{w}.onnx"
        try:
            ops = export(mod, args, p)
            r["onnx"][w] = {"file": os.path.relpath(p, HERE), "ok": True, "ops": ops, "bytes": os.path.getsize(p)}
        except Exception as e:
            r["onnx"][w] = {"ok": False, "error": repr(e)[:3000]}
        log(f"export {w}: {r['onnx'][w].get('ok')}")
        json.dump(r, open(tp, "w"), indent=1)
    # train-mode forward FLOPs (detection: with targets, loss included)
    m.train()
    if fam == "det":
        call = lambda n: m([torch.rand(3, s, s) for _ in range(n)], targets(n, s, root))
    else:
        call = lambda n: m(torch.rand(n, 3, s, s))
    torch.manual_seed(1)
    nb = 1  # SSDlite's last extra block is 1x1 with BatchNorm: train mode needs batch >= 2
    try:
        with FlopCounterMode(display=False) as fct:
            call(1)
    except ValueError as e:
        nb = 2
        with FlopCounterMode(display=False) as fct:
            call(2)
        r["train_note"] = f"batch 1 fails in train mode ({e}); train FLOPs = batch-2 count / 2, saved bytes = slope batch 2->3"
    r["train_forward_flops"] = {k: v // nb for k, v in comp_flops(fct, root).items()}
    log("train flops")
    json.dump(r, open(tp, "w"), indent=1)
    if not no_saved:
        torch.manual_seed(2)
        b1 = saved_bytes(m, lambda: call(nb)); b2 = saved_bytes(m, lambda: call(nb + 1))
        r[f"saved_fp32_bytes_batch{nb}"] = b1; r[f"saved_fp32_bytes_batch{nb+1}"] = b2
        r["saved_fp32_bytes_per_image"] = b2 - b1
        log("saved bytes")
    json.dump(r, open(tp, "w"), indent=1)


if __name__ == "__main__":
    main()
