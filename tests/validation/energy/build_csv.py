#!/usr/bin/env python3
"""Build measured-energy.csv from (1) mlperf_rows.json produced by
extract_mlperf_power.py and (2) the Zeus NSDI'23 power trace in the fetched
ml-energy/zeus mirror. Also prints MLPerf per-configuration official scores."""
import csv, io, json, subprocess, statistics

HDR = ["source","network","dataset","gpu","gpus","gpus_per_node","precision","global_batch",
       "what_measured","scope","time_s","energy_kwh","avg_power_w_per_gpu","per","notes"]
out = []

NET = {"resnet": ("ResNet-50 v1.5", "ImageNet-1k"),
       "ssd": ("RetinaNet (ResNeXt50-32x4d; MLPerf 'ssd')", "OpenImages (MLPerf subset)"),
       "retinanet": ("RetinaNet (ResNeXt50-32x4d)", "OpenImages (MLPerf subset)"),
       "unet3d": ("3D U-Net", "KiTS19")}
PREC = {"resnet": "mixed FP16 (NVIDIA MXNet impl.)", "ssd": "mixed FP16 AMP (NVIDIA PyTorch impl.)",
        "unet3d": "FP16 (NVIDIA MXNet impl., --static_cast --fp16in)", "retinanet": "mixed (NVIDIA PyTorch impl.; not re-checked)"}
rows = json.load(open("mlperf_rows.json"))
for r in rows:
    net, ds = NET[r["bench"]]
    smc = r["submitter"] == "smc-ac-power"
    gpu = "H100-SXM5-80GB" if smc else "B200-SXM-180GB"
    src = (f"MLPerf Training {r['round']} power, {'Sustainable Metal Cloud (smc-ac-power)' if smc else 'Lenovo'}, "
           f"mlcommons/training_results_{r['round']}@{r['commit'][:12]}:{r['result']} (+ power/{r['result'].split('/')[-1][:-4]}/)")
    wm = ("MLPerf power logger: per-node input power at immersion-rack power shelves (~2 s samples)"
          + (" + MLPerf interconnect_power_est (switch, constant)" if r["sw_w"] else "")) if smc else \
         "MLPerf power logger: per-node AC power (~1 s samples), conversion_eff=0.94 applied by summarizer"
    t = r["ttt_s"]; e = r["e_tot_j"]
    notes = (f"energy = MLPerf result_summarizer method (node avg power over power window x TTT"
             f"{' x conversion_eff' if r['eff'] != 1.0 else ''}{' + switch est x TTT' if r['sw_w'] else ''}); "
             f"TTT = run_stop-run_start; {r['nnodes']} node(s); node-only {r['e_nodes_j']/3.6e6:.4f} kWh"
             + (f", interconnect est {r['sw_w']:.0f} W = {r['e_sw_j']/3.6e6:.4f} kWh" if r['sw_w'] else "")
             + f"; alt. integral of raw node readings inside [run_start,run_stop] = {r['e_win_raw_j']/3.6e6:.4f} kWh (no eff, no switch)"
             + ("; cooling: SMC immersion (no server fans)" if smc else "; cooling: water-cooled")
             + "; avg_power_w_per_gpu = energy/(time*gpus), i.e. includes host+network share")
    if r["bench"] == "unet3d" and r["gpus"] == 72:
        notes += "; 72 ranks, logged global_batch_size=56 (config BATCHSIZE=1)"
    out.append([src, net, ds, gpu, r["gpus"], r["gpn"], PREC[r["bench"]], r["gbs"], wm, "node",
                f"{t:.3f}", f"{e/3.6e6:.5f}", f"{e/t/r['gpus']:.1f}", "to-train", notes])

# Zeus NSDI'23 power trace
Z = "/work/.mirror/ml-energy+zeus/repo"
zc = subprocess.run(["git","-C",Z,"rev-parse","HEAD"],capture_output=True,text=True).stdout.strip()
P = "examples/research_reproducibility/zeus_nsdi23/trace"
GPUN = {"v100": "V100", "p100": "P100", "a40": "A40", "rtx6000": "RTX 6000"}
for g in ["v100", "p100", "a40", "rtx6000"]:
    txt = subprocess.run(["git","-C",Z,"show",f"HEAD:{P}/summary_power_{g}.csv"],capture_output=True,text=True).stdout
    recs = list(csv.DictReader(io.StringIO(txt)))
    maxpl = {}
    for d in recs:
        k = (d["dataset"], d["network"], d["batch_size"], d["optimizer"])
        maxpl[k] = max(maxpl.get(k, 0), int(d["power_limit"]))
    for d in recs:
        if d["dataset"] not in ("imagenet", "cifar100"):
            continue
        k = (d["dataset"], d["network"], d["batch_size"], d["optimizer"])
        pl = int(d["power_limit"])
        full_grid = d["network"] == "resnet50" and g in ("v100", "p100")
        if not full_grid and not (pl == maxpl[k] and d["optimizer"] == "adadelta"):
            continue
        t = float(d["time_per_epoch"]); w = float(d["average_power"])
        net = "ResNet-50" if d["network"] == "resnet50" else "ShuffleNetV2"
        ds = "ImageNet-1k" if d["dataset"] == "imagenet" else "CIFAR-100"
        out.append([f"Zeus NSDI'23 power trace, ml-energy/zeus@{zc[:12]}:{P}/summary_power_{g}.csv",
                    net, ds, GPUN[g], 1, 1, "FP32 (no AMP in Zeus example train.py; trace does not state)",
                    d["batch_size"], "NVML GPU power (Zeus profiler), average over one epoch",
                    "gpu-only", d["time_per_epoch"], f"{w*t/3.6e6:.6f}", d["average_power"], "epoch",
                    f"GPU power limit {pl} W{' (max in trace)' if pl == maxpl[k] else ''}; optimizer {d['optimizer']}; "
                    "energy_kwh = average_power*time_per_epoch (derived); single-GPU per Zeus paper setup (not stated in trace file); "
                    "trace README: measured once, not stochastic"])

with open("measured-energy.csv", "w", newline="") as f:
    w = csv.writer(f); w.writerow(HDR); w.writerows(out)
print(len(out), "rows")

# MLPerf per-configuration official scores (olympic avg indexed by TTT, x RCP scaling factor)
SCALE = {("8xSMC-H100-SXM-80GB","resnet"):1.0042232277526395, ("1xSMC-H100-SXM-80GB","resnet"):1.0042232277526395,
         ("1xSMC-H100-SXM-80GB","unet3d"):1.0094459821624708, ("9xSMC-H100-SXM-80GB","unet3d"):1.0593998916439002}
groups = {}
for r in rows:
    groups.setdefault((r["system"], r["bench"]), []).append(r)
for (s, b), rs in groups.items():
    drop = 4 if b == "unet3d" else 1
    rs = sorted(rs, key=lambda x: x["ttt_s"]); keep = rs[drop:len(rs)-drop]
    sf = SCALE.get((s, b), 1.0)
    print(f"{s} {b}: n={len(rs)} score_min={statistics.mean(x['ttt_s'] for x in keep)/60*sf:.3f} "
          f"energy_J={statistics.mean(x['e_tot_j'] for x in keep)*sf:,.0f} scaling={sf}")
