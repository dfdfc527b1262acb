#!/usr/bin/env python3
"""SSD300 training graphs (no loss / box encoding / post-processing), as their training code defines them.

  ssd_resnet50_nvidia : NVIDIA DeepLearningExamples PyTorch/Detection/SSD/ssd/model.py (SSD300 + ResNet('resnet50'))
                        @ 729963dd47e7c8bd462ad10bfac7a7b0b604e6dd
  ssd_resnet34_mlperf : mlcommons/training single_stage_detector/ssd/{ssd300.py,base_model.py} @ f9e0e82d
                        (identical to retired_benchmarks/ssd-v1/ssd/ at HEAD aa344c7f); label_num = 81

Both forwards return (locs [N,4,8732], confs [N,81,8732]), as the source's forward does.
Measures: params, forward FLOPs (FlopCounterMode, batch 1, train and eval), autograd saved bytes per image
(fp32, train mode, slope batch 2 -> 3, parameters excluded; same method as ../det/det.py), and writes a
lightened ONNX (opset 17, eval, do_constant_folding=False, dynamo=False, input [1,3,300,300]).

Usage: /work/venv-retina/bin/python ssd.py
"""
import collections, csv, json, os, sys, time
import torch, onnx
from torch import nn
from torch.utils.flop_counter import FlopCounterMode
from torchvision.models.resnet import resnet34, resnet50

sys.path.insert(0, "/work/shared/tools")
from torch_truth import lighten  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
torch.set_num_threads(2)
torch.manual_seed(0)
S = 300


# =============== 1. NVIDIA DLE PyTorch SSD300 (ssd/model.py), verbatim apart from weights=None ===============
class NvResNet(nn.Module):
    def __init__(self, backbone='resnet50'):
        super().__init__()
        assert backbone == 'resnet50'
        backbone = resnet50(weights=None)  # source: IMAGENET1K_V1/V2 weights; irrelevant to the graph
        self.out_channels = [1024, 512, 512, 256, 256, 256]
        self.feature_extractor = nn.Sequential(*list(backbone.children())[:7])
        conv4_block1 = self.feature_extractor[-1][0]
        conv4_block1.conv1.stride = (1, 1)
        conv4_block1.conv2.stride = (1, 1)
        conv4_block1.downsample[0].stride = (1, 1)

    def forward(self, x):
        return self.feature_extractor(x)


class NvSSD300(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.feature_extractor = backbone
        self.label_num = 81  # number of COCO classes
        self._build_additional_features(self.feature_extractor.out_channels)
        self.num_defaults = [4, 6, 6, 6, 4, 4]
        self.loc, self.conf = [], []
        for nd, oc in zip(self.num_defaults, self.feature_extractor.out_channels):
            self.loc.append(nn.Conv2d(oc, nd * 4, kernel_size=3, padding=1))
            self.conf.append(nn.Conv2d(oc, nd * self.label_num, kernel_size=3, padding=1))
        self.loc = nn.ModuleList(self.loc)
        self.conf = nn.ModuleList(self.conf)
        self._init_weights()

    def _build_additional_features(self, input_size):
        self.additional_blocks = []
        for i, (input_size, output_size, channels) in enumerate(
                zip(input_size[:-1], input_size[1:], [256, 256, 128, 128, 128])):
            if i < 3:
                layer = nn.Sequential(
                    nn.Conv2d(input_size, channels, kernel_size=1, bias=False), nn.BatchNorm2d(channels), nn.ReLU(inplace=True),
                    nn.Conv2d(channels, output_size, kernel_size=3, padding=1, stride=2, bias=False),
                    nn.BatchNorm2d(output_size), nn.ReLU(inplace=True))
            else:
                layer = nn.Sequential(
                    nn.Conv2d(input_size, channels, kernel_size=1, bias=False), nn.BatchNorm2d(channels), nn.ReLU(inplace=True),
                    nn.Conv2d(channels, output_size, kernel_size=3, bias=False),
                    nn.BatchNorm2d(output_size), nn.ReLU(inplace=True))
            self.additional_blocks.append(layer)
        self.additional_blocks = nn.ModuleList(self.additional_blocks)

    def _init_weights(self):
        for layer in [*self.additional_blocks, *self.loc, *self.conf]:
            for param in layer.parameters():
                if param.dim() > 1: nn.init.xavier_uniform_(param)

    def bbox_view(self, src, loc, conf):
        ret = []
        for s, l, c in zip(src, loc, conf):
            ret.append((l(s).reshape(s.size(0), 4, -1), c(s).reshape(s.size(0), self.label_num, -1)))
        locs, confs = list(zip(*ret))
        return torch.cat(locs, 2).contiguous(), torch.cat(confs, 2).contiguous()

    def forward(self, x):
        x = self.feature_extractor(x)
        detection_feed = [x]
        for l in self.additional_blocks:
            x = l(x)
            detection_feed.append(x)
        return self.bbox_view(detection_feed, self.loc, self.conf)


# =============== 2. MLPerf reference SSD (ssd300.py + base_model.py), verbatim apart from pretrained=False ===============
def _ModifyConvStrideDilation(conv, stride=(1, 1), padding=None):
    conv.stride = stride
    if padding is not None:
        conv.padding = padding


def _ModifyBlock(block, bottleneck=False, **kwargs):
    for m in list(block.children()):
        if bottleneck:
            _ModifyConvStrideDilation(m.conv2, **kwargs)
        else:
            _ModifyConvStrideDilation(m.conv1, **kwargs)
        if m.downsample is not None:
            _ModifyConvStrideDilation(list(m.downsample.children())[0], **kwargs)


class MlpResNet34(nn.Module):
    def __init__(self):
        super().__init__()
        rn34 = resnet34(weights=None)  # source: resnet34(pretrained=True) or --pretrained-backbone file
        self.layer1 = nn.Sequential(*list(rn34.children())[:6])
        self.layer2 = nn.Sequential(*list(rn34.children())[6:7])
        modulelist = list(self.layer2.children())
        _ModifyBlock(modulelist[0], stride=(1, 1))

    def forward(self, data):
        return [self.layer2(self.layer1(data))]


class MlpSSD300(nn.Module):
    def __init__(self, label_num=81):
        super().__init__()
        self.label_num = label_num
        self.model = MlpResNet34()
        out_size = 38
        self.out_chan = [256, 512, 512, 256, 256, 256]
        self._build_additional_features(out_size, self.out_chan)
        self.num_defaults = [4, 6, 6, 6, 4, 4]
        self.loc, self.conf = [], []
        for nd, oc in zip(self.num_defaults, self.out_chan):
            self.loc.append(nn.Conv2d(oc, nd * 4, kernel_size=3, padding=1))
            self.conf.append(nn.Conv2d(oc, nd * label_num, kernel_size=3, padding=1))
        self.loc = nn.ModuleList(self.loc)
        self.conf = nn.ModuleList(self.conf)
        self._init_weights()

    def _build_additional_features(self, input_size, input_channels):
        assert input_size == 38
        idx = 0
        self.additional_blocks = []
        self.additional_blocks.append(nn.Sequential(
            nn.Conv2d(input_channels[idx], 256, kernel_size=1), nn.ReLU(inplace=True),
            nn.Conv2d(256, input_channels[idx + 1], kernel_size=3, padding=1, stride=2), nn.ReLU(inplace=True)))
        idx += 1
        self.additional_blocks.append(nn.Sequential(
            nn.Conv2d(input_channels[idx], 256, kernel_size=1), nn.ReLU(inplace=True),
            nn.Conv2d(256, input_channels[idx + 1], kernel_size=3, padding=1, stride=2), nn.ReLU(inplace=True)))
        idx += 1
        self.additional_blocks.append(nn.Sequential(  # conv9_1, conv9_2
            nn.Conv2d(input_channels[idx], 128, kernel_size=1), nn.ReLU(inplace=True),
            nn.Conv2d(128, input_channels[idx + 1], kernel_size=3, padding=1, stride=2), nn.ReLU(inplace=True)))
        idx += 1
        self.additional_blocks.append(nn.Sequential(  # conv10_1, conv10_2
            nn.Conv2d(input_channels[idx], 128, kernel_size=1), nn.ReLU(inplace=True),
            nn.Conv2d(128, input_channels[idx + 1], kernel_size=3), nn.ReLU(inplace=True)))
        idx += 1
        self.additional_blocks.append(nn.Sequential(  # conv11_1, conv11_2 (input_size >= 19)
            nn.Conv2d(input_channels[idx], 128, kernel_size=1), nn.ReLU(inplace=True),
            nn.Conv2d(128, input_channels[idx + 1], kernel_size=3), nn.ReLU(inplace=True)))
        self.additional_blocks = nn.ModuleList(self.additional_blocks)

    def _init_weights(self):
        for layer in [*self.additional_blocks, *self.loc, *self.conf]:
            for param in layer.parameters():
                if param.dim() > 1: nn.init.xavier_uniform_(param)

    def bbox_view(self, src, loc, conf):
        ret = []
        for s, l, c in zip(src, loc, conf):
            ret.append((l(s).view(s.size(0), 4, -1), c(s).view(s.size(0), self.label_num, -1)))
        locs, confs = list(zip(*ret))
        return torch.cat(locs, 2).contiguous(), torch.cat(confs, 2).contiguous()

    def forward(self, data):
        layers = self.model(data)
        x = layers[-1]
        additional_results = []
        for l in self.additional_blocks:
            x = l(x)
            additional_results.append(x)
        src = [*layers, *additional_results]
        return self.bbox_view(src, self.loc, self.conf)


NETS = {
    "ssd_resnet50_nvidia": lambda: NvSSD300(NvResNet('resnet50')),
    "ssd_resnet34_mlperf": lambda: MlpSSD300(81),
}


# =============== measurement (same conventions as ../det/det.py) ===============
def flops_by_child(fc, root):
    out = collections.OrderedDict()
    for mod, d in fc.get_flop_counts().items():
        parts = mod.split(".")
        if parts[0] == root and len(parts) == 2:
            out[parts[1]] = int(sum(d.values()))
    out["total"] = int(fc.get_total_flops())
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


def export(mod, x, path):
    tmp = path + ".tmp.onnx"
    torch.onnx.export(mod, (x,), tmp, dynamo=False, opset_version=17, input_names=["input"],
                      output_names=["locs", "confs"], do_constant_folding=False,
                      training=torch.onnx.TrainingMode.PRESERVE)
    lighten(tmp, path); os.remove(tmp)
    g = onnx.load(path).graph
    return dict(collections.Counter(n.op_type for n in g.node)), \
        [[d.dim_value for d in o.type.tensor_type.shape.dim] for o in g.output]


class PerLevel(nn.Module):
    """Diagnostic only: same convolutions, but returns the 12 raw head conv outputs (loc x6, conf x6),
    with no reshape and no concat (paradl refuses the anchor-axis Concat of the real forward)."""
    def __init__(self, m): super().__init__(); self.m = m
    def forward(self, x):
        m = self.m
        feats = [m.feature_extractor(x)] if isinstance(m, NvSSD300) else list(m.model(x))
        y = feats[-1]
        for l in m.additional_blocks:
            y = l(y); feats.append(y)
        return tuple(l(f) for f, l in zip(feats, m.loc)) + tuple(c(f) for f, c in zip(feats, m.conf))


class PerLevelReshaped(PerLevel):
    """Diagnostic only: per-level outputs reshaped to [N,4,HW*A] / [N,81,HW*A] as bbox_view does, no concat."""
    def forward(self, x):
        o = super().forward(x); n = x.size(0)
        return tuple(t.reshape(n, 4 if i < 6 else self.m.label_num, -1) for i, t in enumerate(o))


def run(name):
    T0 = time.time()
    log = lambda msg: print("[%s %.0fs] %s" % (name, time.time() - T0, msg), file=sys.stderr, flush=True)
    m = NETS[name]()
    root = type(m).__name__
    r = dict(network=name, input=f"3x{S}x{S}")
    r["params"] = sum(p.numel() for p in m.parameters())
    r["params_by_child"] = {n: sum(p.numel() for p in c.parameters()) for n, c in m.named_children()}
    r["buffers_numel"] = sum(b.numel() for b in m.buffers())
    r["bn_layers"] = sum(isinstance(mm, nn.BatchNorm2d) for mm in m.modules())
    r["conv_layers"] = sum(isinstance(mm, nn.Conv2d) for mm in m.modules())
    x = torch.rand(1, 3, S, S)
    # eval
    m.eval()
    with FlopCounterMode(display=False) as fc, torch.no_grad():
        locs, confs = m(x)
    r["out_shapes"] = [list(locs.shape), list(confs.shape)]
    r["eval_forward_flops"] = flops_by_child(fc, root)
    log(f"eval flops {r['eval_forward_flops']['total']:,} out {r['out_shapes']}")
    # feature map sizes (sanity)
    # train
    m.train()
    call = lambda n: m(torch.rand(n, 3, S, S))
    nb = 1
    try:
        with FlopCounterMode(display=False) as fct:
            call(1)
    except ValueError as e:  # BatchNorm on a 1x1 map needs >1 value per channel in train mode
        nb = 2
        with FlopCounterMode(display=False) as fct:
            call(2)
        r["train_note"] = f"batch 1 fails in train mode ({e}); train FLOPs = batch-2 count / 2"
    r["train_forward_flops"] = {k: v // nb for k, v in flops_by_child(fct, root).items()}
    log(f"train flops {r['train_forward_flops']['total']:,} (batch {nb})")
    torch.manual_seed(2)
    b2 = saved_bytes(m, lambda: call(2)); b3 = saved_bytes(m, lambda: call(3))
    r["saved_fp32_bytes_batch2"] = b2; r["saved_fp32_bytes_batch3"] = b3
    r["saved_fp32_bytes_per_image"] = b3 - b2
    log(f"saved bytes/img {b3 - b2:,}")
    # export (eval)
    m.eval()
    p = f"{HERE}/{name}.onnx"
    ops, oshapes = export(m, x, p)
    r["onnx"] = {"file": os.path.basename(p), "bytes": os.path.getsize(p), "ops": ops, "output_shapes": oshapes}
    log(f"exported {p} {r['onnx']['bytes']:,} B")
    os.makedirs(f"{HERE}/diag", exist_ok=True)
    for tag, W in (("perlevel", PerLevel), ("perlevel_reshaped", PerLevelReshaped)):
        w = W(m).eval()
        with FlopCounterMode(display=False) as fcw, torch.no_grad():
            w(x)
        pd = f"{HERE}/diag/{name}_{tag}.onnx"
        torch.onnx.export(w, (x,), pd + ".tmp", dynamo=False, opset_version=17, input_names=["input"],
                          do_constant_folding=False, training=torch.onnx.TrainingMode.PRESERVE)
        lighten(pd + ".tmp", pd); os.remove(pd + ".tmp")
        r[f"diag_{tag}"] = {"file": os.path.relpath(pd, HERE), "forward_flops": int(fcw.get_total_flops())}
    return r


def main():
    rows = [run(n) for n in NETS]
    json.dump(rows, open(f"{HERE}/truth.json", "w"), indent=1)
    with open(f"{HERE}/truth.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["network", "input", "params", "forward_flops", "saved_fp32_bytes_per_image"])
        for r in rows:
            assert r["train_forward_flops"]["total"] == r["eval_forward_flops"]["total"]
            w.writerow([r["network"], r["input"], r["params"], r["eval_forward_flops"]["total"],
                        r["saved_fp32_bytes_per_image"]])
    print(open(f"{HERE}/truth.csv").read())


if __name__ == "__main__":
    main()
